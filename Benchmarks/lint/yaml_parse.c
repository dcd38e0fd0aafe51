/* The bare cost trackc lint is compared against: parse a file with libyaml's event API, touching every
   event, building nothing. Prints the event count so the work cannot be optimised away. */
#include <stdio.h>
#include <stdlib.h>
#include <yaml.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s FILE\n", argv[0]); return 64; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 66; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buffer = malloc((size_t)size + 1);
    if (!buffer || fread(buffer, 1, (size_t)size, f) != (size_t)size) { perror("read"); return 66; }
    fclose(f);

    yaml_parser_t parser;
    yaml_event_t event;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, buffer, (size_t)size);
    unsigned long events = 0, bytes = 0;
    for (;;) {
        if (!yaml_parser_parse(&parser, &event)) {
            fprintf(stderr, "%s:%zu:%zu: error: %s\n", argv[1], parser.problem_mark.line + 1,
                    parser.problem_mark.column + 1, parser.problem);
            return 1;
        }
        events++;
        if (event.type == YAML_SCALAR_EVENT) bytes += event.data.scalar.length;
        int done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        if (done) break;
    }
    yaml_parser_delete(&parser);
    free(buffer);
    printf("%lu events, %lu scalar bytes\n", events, bytes);
    return 0;
}
