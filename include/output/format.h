/* format.h: the encodings a profile is written in (format=; profile_output.h writes them).
 * Apart from profile_output.h so that the option table (control/options.h), which stays pure
 * C, can name the choices without the JVM's headers. */
#ifndef HS_FORMAT_H
#define HS_FORMAT_H

typedef enum { HS_FORMAT_PPROF = 0, HS_FORMAT_COLLAPSED, HS_FORMAT_HTML } hs_format;

#endif
