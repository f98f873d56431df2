/* libqrencode (Debian's libqrencode-dev): QR code symbols for sesamectl's terminal prompts. */
#include <qrencode.h>
