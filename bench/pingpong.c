/*
 * bench/pingpong.c — the transport floor for bench/compare.sh (issue 17).
 *
 * A C server and C clients over a Unix-domain stream socket, doing the least a request/reply
 * protocol can: each client writes a frame (a 4-byte big-endian length and a 60-byte payload,
 * the size of a small `send`), the server reads it and writes it back, the client reads the
 * reply, and only then sends the next (one in flight). The server is one thread with epoll,
 * as storehost's loop is; each client is a thread of its own, as storeclient bench's are.
 * Nothing is parsed, nothing is reduced: what is left is the kernel's cost of a round trip
 * and two wake-ups, which no host can beat.
 *
 * Usage:  pingpong SOCKET_PATH CLIENTS SECONDS
 * Prints one JSON object: {"clients":N,"round_trips":R,"round_trips_per_s":X,
 *                          "p50_us":A,"p99_us":B}
 * Build:  cc -O2 -pthread -o pingpong bench/pingpong.c   (compare.sh does this)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { PAYLOAD = 60, FRAME = 4 + PAYLOAD, MAX_SAMPLES = 1 << 24 };

static void die(const char *what) {
  fprintf(stderr, "pingpong: %s: %s\n", what, strerror(errno));
  exit(1);
}

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Reads or writes exactly n bytes; 0 at a clean end of stream, -1 on error. */
static int read_full(int fd, char *buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t r = read(fd, buf + done, n - done);
    if (r == 0) return 0;
    if (r < 0) { if (errno == EINTR) continue; return -1; }
    done += (size_t)r;
  }
  return 1;
}

static int write_full(int fd, const char *buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t w = write(fd, buf + done, n - done);
    if (w < 0) { if (errno == EINTR) continue; return -1; }
    done += (size_t)w;
  }
  return 1;
}

/* --- Server: one thread, epoll, echo each whole frame back -------------------------------- */

struct conn { int fd; size_t have; char buf[FRAME]; };

static void serve(int listener) {
  int ep = epoll_create1(0);
  if (ep < 0) die("epoll_create1");
  struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
  if (epoll_ctl(ep, EPOLL_CTL_ADD, listener, &ev) < 0) die("epoll_ctl");
  struct epoll_event events[64];
  for (;;) {
    int n = epoll_wait(ep, events, 64, -1);
    if (n < 0) { if (errno == EINTR) continue; die("epoll_wait"); }
    for (int i = 0; i < n; i++) {
      struct conn *c = events[i].data.ptr;
      if (c == NULL) {
        int fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) continue;
        c = calloc(1, sizeof *c);
        c->fd = fd;
        struct epoll_event cev = { .events = EPOLLIN, .data.ptr = c };
        epoll_ctl(ep, EPOLL_CTL_ADD, fd, &cev);
        continue;
      }
      for (;;) {
        ssize_t r = read(c->fd, c->buf + c->have, FRAME - c->have);
        if (r > 0) {
          c->have += (size_t)r;
          if (c->have == FRAME) {
            /* A reply of 64 bytes fits any socket buffer: the write completes at once. */
            if (write_full(c->fd, c->buf, FRAME) < 0) r = 0;
            c->have = 0;
          }
          if (r > 0) continue;
        }
        if (r < 0 && (errno == EAGAIN || errno == EINTR)) break;
        close(c->fd);
        free(c);
        break;
      }
    }
  }
}

/* --- Clients: one thread each, one frame in flight ---------------------------------------- */

struct client {
  const char *path;
  uint64_t deadline;
  uint32_t *samples; /* round-trip times in ns, this client's own array */
  size_t count, capacity;
};

static void *run_client(void *arg) {
  struct client *cl = arg;
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) die("socket");
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  strncpy(addr.sun_path, cl->path, sizeof addr.sun_path - 1);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) die("connect");
  char frame[FRAME], reply[FRAME];
  frame[0] = 0; frame[1] = 0; frame[2] = 0; frame[3] = PAYLOAD;
  memset(frame + 4, 'x', PAYLOAD);
  while (cl->count < cl->capacity) {
    uint64_t start = now_ns();
    if (start >= cl->deadline) break;
    if (write_full(fd, frame, FRAME) < 0) die("write");
    if (read_full(fd, reply, FRAME) <= 0) die("read");
    uint64_t took = now_ns() - start;
    cl->samples[cl->count++] = took > UINT32_MAX ? UINT32_MAX : (uint32_t)took;
  }
  close(fd);
  return NULL;
}

static int by_value(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: pingpong SOCKET_PATH CLIENTS SECONDS\n");
    return 64;
  }
  const char *path = argv[1];
  int clients = atoi(argv[2]);
  double seconds = atof(argv[3]);
  if (clients < 1 || clients > 1024 || seconds <= 0) {
    fprintf(stderr, "pingpong: CLIENTS must be 1–1024 and SECONDS positive\n");
    return 64;
  }
  signal(SIGPIPE, SIG_IGN);
  unlink(path);
  int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (listener < 0) die("socket");
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  strncpy(addr.sun_path, path, sizeof addr.sun_path - 1);
  if (bind(listener, (struct sockaddr *)&addr, sizeof addr) < 0) die("bind");
  if (listen(listener, 1024) < 0) die("listen");
  /* The server is a process of its own, as a host is. */
  pid_t server = fork();
  if (server < 0) die("fork");
  if (server == 0) serve(listener);
  close(listener);

  pthread_t threads[1024];
  struct client cls[1024];
  uint64_t start = now_ns();
  uint64_t deadline = start + (uint64_t)(seconds * 1e9);
  size_t capacity = MAX_SAMPLES / (size_t)clients;
  for (int i = 0; i < clients; i++) {
    cls[i] = (struct client){ .path = path, .deadline = deadline, .capacity = capacity };
    cls[i].samples = malloc(capacity * sizeof(uint32_t));
    if (cls[i].samples == NULL) die("malloc");
    if (pthread_create(&threads[i], NULL, run_client, &cls[i]) != 0) die("pthread_create");
  }
  size_t total = 0;
  for (int i = 0; i < clients; i++) { pthread_join(threads[i], NULL); total += cls[i].count; }
  double elapsed = (double)(now_ns() - start) / 1e9;
  kill(server, SIGTERM);
  waitpid(server, NULL, 0);
  unlink(path);

  uint32_t *all = malloc((total ? total : 1) * sizeof(uint32_t));
  size_t at = 0;
  for (int i = 0; i < clients; i++) {
    memcpy(all + at, cls[i].samples, cls[i].count * sizeof(uint32_t));
    at += cls[i].count;
    free(cls[i].samples);
  }
  qsort(all, total, sizeof(uint32_t), by_value);
  double p50 = total ? all[total / 2] / 1000.0 : 0, p99 = total ? all[(total * 99) / 100] / 1000.0 : 0;
  printf("{\"clients\":%d,\"round_trips\":%zu,\"round_trips_per_s\":%.0f,\"p50_us\":%.1f,\"p99_us\":%.1f}\n",
         clients, total, total / elapsed, p50, p99);
  free(all);
  return 0;
}
