#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <syslog.h>
