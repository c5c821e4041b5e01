// The wrappers declared in CEpoll.h; an empty unit elsewhere than Linux.
#include "CEpoll.h"

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>

const uint32_t cepoll_in = EPOLLIN;
const uint32_t cepoll_out = EPOLLOUT;
const uint32_t cepoll_err = EPOLLERR;
const uint32_t cepoll_hup = EPOLLHUP;
const uint32_t cepoll_rdhup = EPOLLRDHUP;

int cepoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int cepoll_control(int epoll, int op, int descriptor, uint32_t events, uint64_t token) {
  static const int ops[] = {EPOLL_CTL_ADD, EPOLL_CTL_MOD, EPOLL_CTL_DEL};
  if (op < 0 || op > 2) return -1;
  struct epoll_event event;
  event.events = events;
  event.data.u64 = token;
  return epoll_ctl(epoll, ops[op], descriptor, &event);
}

int cepoll_wait(int epoll, cepoll_ready *ready, int capacity, int timeout_milliseconds) {
  struct epoll_event events[256];
  if (capacity > 256) capacity = 256;
  int count = epoll_wait(epoll, events, capacity, timeout_milliseconds);
  for (int index = 0; index < count; index++) {
    ready[index].events = events[index].events;
    ready[index].token = events[index].data.u64;
  }
  return count;
}

int cepoll_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
#endif
