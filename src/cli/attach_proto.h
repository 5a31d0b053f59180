/* attach_proto.h: the bytes of HotSpot's attach protocol and of the agent's reply file
 * (pure: no I/O, so both parsers are unit-tested against every known shape).
 *
 * Request (protocol 1): "1\0load\0<library>\0<absolute: true|false>\0<options>\0"; each
 * argument at most 1024 bytes (HotSpot's arg_length_max).
 * Response: a line with the attach operation's result (0: the load op ran), then its text.
 * For `load`, the text's first line is the agent's Agent_OnAttach return code: "N" on old
 * JDKs, "return code: N" since JDK 9; a failed op (library not found...) carries the JVM's
 * reason instead.
 * Reply file (written by the agent for reply=PATH): line 1
 * "heapsampler-reply 1 version=<VERSION> rc=<0|1>", then the answer or its error lines. */
#ifndef HS_CLI_ATTACH_PROTO_H
#define HS_CLI_ATTACH_PROTO_H

#include <stdbool.h>
#include <stddef.h>

#define CLI_ATTACH_ARG_MAX 1024

/* Writes the load request into buf. Returns its length, or 0 when an argument is longer
 * than CLI_ATTACH_ARG_MAX or buf is too small. */
size_t cli_attach_load_request(char *buf, size_t len, const char *library, const char *options);

typedef struct {
    int op_rc;        /* the attach operation's result (first line) */
    bool has_agent_rc;
    int agent_rc;     /* Agent_OnAttach's return code, when the op ran */
    const char *text; /* the rest of the response (the JVM's message), NUL-terminated */
} cli_attach_response;

/* Parses a complete response (buf NUL-terminated at len). Returns 0, or -1 when the first
 * line is not a number. */
int cli_attach_parse_response(const char *buf, size_t len, cli_attach_response *out);

typedef struct {
    char version[64];
    int rc;           /* 0: answer, 1: error lines */
    const char *body; /* after the header line, NUL-terminated */
} cli_reply;

/* Parses a reply file's contents (NUL-terminated at len). Returns 0, or -1 when the
 * header line is missing or malformed (an agent that wrote nothing, or something else). */
int cli_reply_parse(const char *buf, size_t len, cli_reply *out);

/* Finds "key: value" among the lines of text; copies the value (up to the line's end) into
 * out. Returns true when found. */
bool cli_text_field(const char *text, const char *key, char *out, size_t len);

#endif
