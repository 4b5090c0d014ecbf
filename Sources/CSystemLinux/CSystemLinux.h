// Linux system interfaces that Swift's Glibc module does not import, declared by the system's
// own headers (or, where those hide them behind _GNU_SOURCE, by prototypes copied from them), so
// that the compiler checks every call. Empty on other platforms.
//
//   <sys/epoll.h>     epoll_create1, epoll_ctl, epoll_wait, struct epoll_event   (Wire's EventLoop)
//   <sys/eventfd.h>   eventfd                                  (the event loop's wakeup)
//   <malloc.h>        mallopt, malloc_trim, M_MMAP_THRESHOLD   (the host's allocator settings)
//   accept4, pthread_setname_np, struct ucred                  (_GNU_SOURCE only, see below)
//   fallocate                          (_GNU_SOURCE only: a durable host's journal segments)
#ifndef C_SYSTEM_LINUX_H
#define C_SYSTEM_LINUX_H

#if defined(__linux__)
#include <malloc.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/types.h>

// glibc declares these only under _GNU_SOURCE, and Swift's Glibc module is built without it
// (a #define here cannot change a module that is already built). The prototypes and the struct
// are glibc's own, from <sys/socket.h>, <bits/socket.h> and <pthread.h>.
#if !defined(__USE_GNU)
extern int accept4(int fd, struct sockaddr *addr, socklen_t *addr_len, int flags);
extern int pthread_setname_np(pthread_t thread, const char *name);
extern int fallocate(int fd, int mode, off_t offset, off_t len);
struct ucred {
  pid_t pid;
  uid_t uid;
  gid_t gid;
};
#endif
#endif

#endif
