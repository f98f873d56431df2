/* Watches the session's state in a GLib main loop (as a GTK app would): the current state
 * first, then every change, across daemon restarts, until Ctrl-C.
 * Build: cc glib-watch.c $(pkg-config --cflags --libs sesame glib-2.0) -o glib-watch */
#include <glib-unix.h>
#include <glib.h>
#include <sesame.h>
#include <stdio.h>

static void on_state(const sesame_state *state, void *user_data) {
    (void)user_data;
    printf("%-14s %-12s %s\n", state->status, state->reason, state->user ? state->user->uid : "-");
    fflush(stdout);
}

static void on_error(const sesame_error *error, void *user_data) {
    fprintf(stderr, "sesame: %s\n", error->message);
    if (error->reason == SESAME_REASON_PERMISSION_DENIED) g_main_loop_quit(user_data);
}

/* The subscription's one descriptor is readable: let libsesame read it and run the callbacks. */
static gboolean on_ready(gint fd, GIOCondition condition, gpointer subscription) {
    (void)fd;
    (void)condition;
    return sesame_dispatch(subscription) >= 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static gboolean on_interrupt(gpointer loop) {
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

int main(void) {
    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    sesame_callbacks callbacks = {.on_state = on_state, .on_error = on_error};
    sesame_subscription_t *subscription = NULL;
    sesame_error error;
    if (sesame_subscribe(NULL, 0, &callbacks, loop, &subscription, &error) != 0) {
        fprintf(stderr, "sesame: %s\n", error.message);
        return 1;
    }
    g_unix_fd_add(sesame_subscription_fd(subscription), G_IO_IN, on_ready, subscription);
    g_unix_signal_add(SIGINT, on_interrupt, loop);
    g_main_loop_run(loop);
    sesame_unsubscribe(subscription);
    g_main_loop_unref(loop);
    return 0;
}
