/* Asks libketama (RJ/ketama, libketama/ketama.c, unchanged) where keys go: argv[1] is a server
 * file ("host:port<TAB>weight" lines), stdin one key a line; prints each key's server. Compiled
 * and run by PeerVectorGenerator (LibketamaPeer). */
#include <stdio.h>
#include <string.h>
#include "ketama.h"

int main(int argc, char **argv) {
  ketama_continuum c;
  char line[4096];
  if (argc != 2 || !ketama_roll(&c, argv[1])) {
    fprintf(stderr, "ketama_roll failed: %s\n", ketama_error());
    return 1;
  }
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = '\0';
    printf("%s\n", ketama_get_server(line, c)->ip);
  }
  ketama_smoke(c);
  return 0;
}
