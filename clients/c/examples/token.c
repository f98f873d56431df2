/* Prints an ID token of this machine's session, for "Authorization: Bearer ...".
 * Build: cc token.c $(pkg-config --cflags --libs sesame) -o token */
#include <sesame.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    sesame_error error;
    /* NULL: connect to the daemon found as every client finds it, ask, close. */
    char *token = sesame_get_id_token(NULL, 0, &error);
    if (token == NULL) {
        fprintf(stderr, "no token (%s): %s\n", error.reason_text, error.message);
        return 1;
    }
    printf("%s\n", token);
    free(token);
    return 0;
}
