#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <syslog.h>
/* malloc_trim(3), for giving free heap memory back when idle (SesameSystemd's IdleRelease). */
#include <malloc.h>
/* sd-bus: logind's PrepareForSleep (SesameSystemd's SleepWatch). */
#include <systemd/sd-bus.h>
/* timerfd(2) with TFD_TIMER_CANCEL_ON_SET: the calendar clock was set (SesameSystemd's CalendarWatch). */
#include <sys/timerfd.h>
