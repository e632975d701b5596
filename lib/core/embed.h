/* Files embedded in the library at build time (content/ YAML files, templates/ YAML files). */
#ifndef RMG_EMBED_H
#define RMG_EMBED_H

#include <stddef.h>

typedef struct rmg__embedded_file {
    const char *name;             /* path relative to its folder, e.g. "creatures.yaml" */
    const unsigned char *data;    /* NUL-terminated */
    size_t size;                  /* without the NUL */
} rmg__embedded_file;

/* content/ YAML files, sorted by name; terminated by a {NULL} entry. */
extern const rmg__embedded_file rmg__embedded_content[];
extern const size_t rmg__embedded_content_count;
/* templates/ YAML files: the built-in template pack(s). */
extern const rmg__embedded_file rmg__embedded_templates[];
extern const size_t rmg__embedded_templates_count;

#endif
