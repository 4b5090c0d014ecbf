// A stand-in for the parts of macOS's C library that Sources/Wire/Platform uses, so that the
// Darwin shim can be type-checked on Linux, where there is no macOS SDK. Not Apple's headers:
// each declaration below restates, with the same C types, what the macOS 15 SDK declares
// (arm64 and x86-64 alike: LP64), from
//   XNU  bsd/sys/_types.h, _types/*.h, socket.h, un.h, poll.h, stat.h, fcntl.h, errno.h,
//        bsd/netinet/in.h, tcp.h
//   Libc unistd.h, stdlib.h, string.h      libpthread pthread.h, sys/_pthread/_pthread_types.h
// Pointer nullability is as in those headers: pthread.h annotates its pointers (so Swift sees
// optionals or not); the BSD headers do not (so Swift sees implicitly unwrapped optionals).
// Only the names the shims use are here (Wire's Platform/Posix.swift and Posix+Darwin.swift,
// storeclient's Utilities/Platform.swift, ArgumentParsing's TerminalWidth.swift, HTTPServing's
// Platform/); a new use fails to
// type-check until its declaration is added from the SDK's header.
#ifndef C_DARWIN_STAND_IN_H
#define C_DARWIN_STAND_IN_H

// sys/_types.h, machine/_types.h
typedef unsigned char __uint8_t;
typedef unsigned short __uint16_t;
typedef int __int32_t;
typedef unsigned int __uint32_t;
typedef long long __int64_t;
typedef unsigned long long __uint64_t;
typedef unsigned long size_t;
typedef long ssize_t;
typedef long time_t;
typedef __int32_t dev_t;
typedef __uint16_t mode_t;
typedef __uint16_t nlink_t;
typedef __uint64_t ino_t;  // __DARWIN_64_BIT_INO_T
typedef __uint32_t uid_t;
typedef __uint32_t gid_t;
typedef __int32_t pid_t;
typedef __int64_t off_t;
typedef __int64_t blkcnt_t;
typedef __int32_t blksize_t;
typedef __uint32_t socklen_t;
typedef __uint8_t sa_family_t;

// sys/errno.h: `errno` is `(*__error())`; the Swift overlay wraps it as `errno`.
extern int *__error(void);
#define EPERM 1
#define ENOENT 2
#define EINTR 4
#define ENOMEM 12
#define EACCES 13
#define ENOTDIR 20
#define ENFILE 23
#define EMFILE 24
#define EPIPE 32
#define EAGAIN 35
#define EWOULDBLOCK EAGAIN
#define EINPROGRESS 36
#define EADDRINUSE 48
#define ECONNABORTED 53
#define ECONNRESET 54
#define ENOBUFS 55
#define ECONNREFUSED 61
#define ENAMETOOLONG 63
#define EPROTO 100

// stdlib.h, string.h
void exit(int status) __attribute__((__noreturn__));
char *getenv(const char *name);
void *malloc(size_t size);
void *realloc(void *pointer, size_t size);
void free(void *pointer);
char *strerror(int code);

// sys/_types/_timespec.h, time.h
struct timespec {
  time_t tv_sec;
  long tv_nsec;
};
// The SDK follows each enumerator with `#define CLOCK_… _CLOCK_…`, which Swift on Darwin
// imports as the constant; this toolchain's importer does not, so Darwin.swift declares them.
typedef enum {
  _CLOCK_REALTIME = 0,
  _CLOCK_MONOTONIC = 6,
} clockid_t;
int clock_gettime(clockid_t clock, struct timespec *time);
// time.h: calendar times (storeclient log's time of day)
struct tm {
  int tm_sec;
  int tm_min;
  int tm_hour;
  int tm_mday;
  int tm_mon;
  int tm_year;
  int tm_wday;
  int tm_yday;
  int tm_isdst;
  long tm_gmtoff;
  char *tm_zone;
};
struct tm *gmtime_r(const time_t *clock, struct tm *result);
struct tm *localtime_r(const time_t *clock, struct tm *result);
time_t timegm(struct tm *time);

// unistd.h
int close(int fd);
ssize_t read(int fd, void *buffer, size_t count);
ssize_t write(int fd, const void *buffer, size_t count);
int pipe(int fds[2]);
int unlink(const char *path);
uid_t getuid(void);
int getpeereid(int fd, uid_t *uid, gid_t *gid);
int isatty(int fd);

// sys/ttycom.h: ioctl itself is variadic (the Swift overlay declares its forms); TIOCGWINSZ is
// _IOR('t', 104, struct winsize), an unsigned 32-bit value.
struct winsize {
  unsigned short ws_row;
  unsigned short ws_col;
  unsigned short ws_xpixel;
  unsigned short ws_ypixel;
};
#define TIOCGWINSZ ((__uint32_t)0x40087468)


// fcntl.h: fcntl itself is variadic; the Swift overlay declares its three forms.
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define FD_CLOEXEC 1
#define O_NONBLOCK 0x00000004

// poll.h
struct pollfd {
  int fd;
  short events;
  short revents;
};
typedef unsigned int nfds_t;
#define POLLIN 0x0001
#define POLLOUT 0x0004
#define POLLERR 0x0008
#define POLLHUP 0x0010
#define POLLNVAL 0x0020
int poll(struct pollfd *fds, nfds_t count, int timeout);

// sys/socket.h
struct sockaddr {
  __uint8_t sa_len;
  sa_family_t sa_family;
  char sa_data[14];
};
#define SOCK_STREAM 1
#define AF_UNIX 1
#define SOL_SOCKET 0xffff
#define SO_ERROR 0x1007
#define SO_TYPE 0x1008
#define SO_ACCEPTCONN 0x0002
#define SO_NOSIGPIPE 0x1022
int socket(int domain, int type, int protocol);
int bind(int fd, const struct sockaddr *address, socklen_t length);
int connect(int fd, const struct sockaddr *address, socklen_t length);
int listen(int fd, int backlog);
int accept(int fd, struct sockaddr *__restrict address, socklen_t *__restrict length);
ssize_t send(int fd, const void *buffer, size_t count, int flags);
int getsockopt(
  int fd, int level, int name, void *__restrict value, socklen_t *__restrict length);
int setsockopt(int fd, int level, int name, const void *value, socklen_t length);
#define SO_REUSEADDR 0x0004
#define SHUT_WR 1
ssize_t recv(int fd, void *buffer, size_t count, int flags);
int shutdown(int fd, int how);
int getsockname(int fd, struct sockaddr *__restrict address, socklen_t *__restrict length);

// netinet/in.h, netinet/tcp.h
typedef __uint16_t in_port_t;
typedef __uint32_t in_addr_t;
struct in_addr {
  in_addr_t s_addr;
};
struct sockaddr_in {
  __uint8_t sin_len;
  sa_family_t sin_family;
  in_port_t sin_port;
  struct in_addr sin_addr;
  char sin_zero[8];
};
#define AF_INET 2
#define IPPROTO_TCP 6
#define TCP_NODELAY 0x01

// netinet6/in6.h, sys/socket.h's sockaddr_storage, netdb.h, arpa/inet.h: Wire's TCP client
// (Posix+TCP.swift).
#define AF_UNSPEC 0
#define AF_INET6 30
struct in6_addr {
  __uint8_t s6_addr[16];
};
struct sockaddr_in6 {
  __uint8_t sin6_len;
  sa_family_t sin6_family;
  in_port_t sin6_port;
  __uint32_t sin6_flowinfo;
  struct in6_addr sin6_addr;
  __uint32_t sin6_scope_id;
};
struct sockaddr_storage {
  __uint8_t ss_len;
  sa_family_t ss_family;
  char __ss_pad1[6];
  long long __ss_align;
  char __ss_pad2[112];
};
struct addrinfo {
  int ai_flags;
  int ai_family;
  int ai_socktype;
  int ai_protocol;
  socklen_t ai_addrlen;
  char *ai_canonname;
  struct sockaddr *ai_addr;
  struct addrinfo *ai_next;
};
#define AI_NUMERICHOST 0x00000004
#define AI_NUMERICSERV 0x00001000
int getaddrinfo(
  const char *__restrict node, const char *__restrict service,
  const struct addrinfo *__restrict hints, struct addrinfo **__restrict result);
void freeaddrinfo(struct addrinfo *info);
const char *gai_strerror(int code);
const char *inet_ntop(int family, const void *__restrict source, char *__restrict destination,
  socklen_t size);

// sys/signal.h: SIG_IGN is `(void (*)(int))1`, which the Swift overlay declares.
#define SIGPIPE 13
typedef void (*sig_t)(int);
sig_t signal(int number, sig_t handler);

// sys/un.h
struct sockaddr_un {
  unsigned char sun_len;
  sa_family_t sun_family;
  char sun_path[104];
};
#define SOL_LOCAL 0
#define LOCAL_PEERCRED 0x001
#define LOCAL_PEERPID 0x002

// sys/ucred.h
#define XUCRED_VERSION 0
struct xucred {
  unsigned int cr_version;
  uid_t cr_uid;
  short cr_ngroups;
  gid_t cr_groups[16];
};

// sys/stat.h (64-bit inodes). S_IFMT and S_IFSOCK: the Swift overlay redeclares them as mode_t.
struct stat {
  dev_t st_dev;
  mode_t st_mode;
  nlink_t st_nlink;
  __uint64_t st_ino;
  uid_t st_uid;
  gid_t st_gid;
  dev_t st_rdev;
  struct timespec st_atimespec;
  struct timespec st_mtimespec;
  struct timespec st_ctimespec;
  struct timespec st_birthtimespec;
  off_t st_size;
  blkcnt_t st_blocks;
  blksize_t st_blksize;
  __uint32_t st_flags;
  __uint32_t st_gen;
  __int32_t st_lspare;
  __int64_t st_qspare[2];
};
int lstat(const char *path, struct stat *info);
int chmod(const char *path, mode_t mode);
mode_t umask(mode_t mask);

// sys/_pthread/_pthread_types.h, pthread.h
struct __darwin_pthread_handler_rec {
  void (*__routine)(void *);
  void *__arg;
  struct __darwin_pthread_handler_rec *__next;
};
struct _opaque_pthread_t {
  long __sig;
  struct __darwin_pthread_handler_rec *__cleanup_stack;
  char __opaque[8176];
};
struct _opaque_pthread_attr_t {
  long __sig;
  char __opaque[56];
};
struct _opaque_pthread_mutex_t {
  long __sig;
  char __opaque[56];
};
struct _opaque_pthread_mutexattr_t {
  long __sig;
  char __opaque[8];
};
typedef struct _opaque_pthread_t *pthread_t;
typedef struct _opaque_pthread_attr_t pthread_attr_t;
typedef struct _opaque_pthread_mutex_t pthread_mutex_t;
typedef struct _opaque_pthread_mutexattr_t pthread_mutexattr_t;
// The form the SDK declares for Swift importers of its current overlay (the older one, for
// _PTHREAD_SWIFT_IMPORTER_NULLABILITY_COMPAT, has non-optional pointers).
int pthread_create(
  pthread_t _Nullable *_Nonnull __restrict thread,
  const pthread_attr_t *_Nullable __restrict attributes,
  void *_Nullable (*_Nonnull start)(void *_Nullable), void *_Nullable __restrict argument);
int pthread_join(pthread_t _Nonnull thread, void *_Nullable *_Nullable result);
pthread_t _Nonnull pthread_self(void);
int pthread_setname_np(const char *_Nonnull name);
int pthread_mutex_init(
  pthread_mutex_t *_Nonnull __restrict mutex,
  const pthread_mutexattr_t *_Nullable __restrict attributes);
int pthread_mutex_lock(pthread_mutex_t *_Nonnull mutex);
int pthread_mutex_unlock(pthread_mutex_t *_Nonnull mutex);
int pthread_mutex_destroy(pthread_mutex_t *_Nonnull mutex);

#endif
