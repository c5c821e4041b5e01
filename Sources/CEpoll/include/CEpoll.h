// epoll(7) and eventfd(2) for Swift on Linux: Glibc's Swift module does not export sys/epoll.h.
// epoll_event is packed on x86-64, so the calls are wrapped to take and fill plain structs.
#ifndef CEPOLL_H
#define CEPOLL_H

#include <stdint.h>

/// One ready descriptor as epoll_wait reported it: its events and the number it was added with.
typedef struct {
  uint32_t events;
  uint64_t token;
} cepoll_ready;

#ifdef __linux__
/// EPOLLIN, EPOLLOUT, EPOLLERR, EPOLLHUP and EPOLLRDHUP, as the kernel spells them.
extern const uint32_t cepoll_in;
extern const uint32_t cepoll_out;
extern const uint32_t cepoll_err;
extern const uint32_t cepoll_hup;
extern const uint32_t cepoll_rdhup;

/// epoll_create1(EPOLL_CLOEXEC).
int cepoll_create(void);
/// epoll_ctl with EPOLL_CTL_ADD (op 0), EPOLL_CTL_MOD (op 1) or EPOLL_CTL_DEL (op 2).
int cepoll_control(int epoll, int op, int descriptor, uint32_t events, uint64_t token);
/// epoll_wait into `ready` (at most `capacity` entries); -1 with errno on failure.
int cepoll_wait(int epoll, cepoll_ready *ready, int capacity, int timeout_milliseconds);
/// eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC).
int cepoll_eventfd(void);
#endif

#endif
