/* site_cut.c: a site's name cut in its middle (see site_cut.h). */
#include "output/site_cut.h"

#include <stdbool.h>
#include <string.h>

#define ELLIPSIS "\xe2\x80\xa6"
#define ARROW_SEPARATOR " \xe2\x86\x92 "

static int is_continuation(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

size_t hs_display_width(const char *s) {
    size_t w = 0;
    for (; *s; s++) w += !is_continuation(*s);
    return w;
}

static size_t width_of(const char *s, size_t n) {
    size_t w = 0;
    for (size_t i = 0; i < n; i++) w += !is_continuation(s[i]);
    return w;
}

/* Bytes of the first `columns` code points of s[0..n). */
static size_t head_bytes(const char *s, size_t n, size_t columns) {
    size_t i = 0, w = 0;
    for (; i < n; i++) {
        if (!is_continuation(s[i])) {
            if (w == columns) break;
            w++;
        }
    }
    return i;
}

/* Byte offset where the last `columns` code points of s[0..n) begin. */
static size_t tail_start(const char *s, size_t n, size_t columns) {
    size_t i = n, w = 0;
    while (i > 0 && w < columns) {
        i--;
        if (!is_continuation(s[i])) w++;
    }
    return i;
}

/* s[0..n) in `columns` columns: its start, an ellipsis, its end (the end gets two thirds:
 * it holds the method's or the class's own name). Whole when it fits. */
static void append_middle_cut(hs_text *out, const char *s, size_t n, size_t columns) {
    size_t w = width_of(s, n);
    if (w <= columns) {
        hs_text_append(out, s, n);
        return;
    }
    if (columns == 0) return;
    size_t keep = columns - 1, head = keep / 3, tail = keep - head;
    hs_text_append(out, s, head_bytes(s, n, head));
    hs_text_puts(out, ELLIPSIS);
    size_t from = tail_start(s, n, tail);
    hs_text_append(out, s + from, n - from);
}

/* s[0..n) in `columns` columns, cut at its end. */
static void append_end_cut(hs_text *out, const char *s, size_t n, size_t columns) {
    if (width_of(s, n) <= columns) {
        hs_text_append(out, s, n);
        return;
    }
    if (columns == 0) return;
    hs_text_append(out, s, head_bytes(s, n, columns - 1));
    hs_text_puts(out, ELLIPSIS);
}

/* The parts of a site: frame name, ":line" (or ""), " → class" (or ""). */
typedef struct {
    const char *frame;
    size_t frame_len;
    const char *line; /* ":88" */
    size_t line_len;
    const char *cls;  /* " → byte[]" */
    size_t cls_len;
} site_parts;

static void split_site(const char *site, site_parts *p) {
    size_t n = strlen(site);
    const char *arrow = strstr(site, ARROW_SEPARATOR);
    size_t head = arrow ? (size_t)(arrow - site) : n;
    p->cls = site + head;
    p->cls_len = n - head;
    size_t digits = 0;
    while (digits < head && site[head - 1 - digits] >= '0' && site[head - 1 - digits] <= '9')
        digits++;
    bool has_line = digits > 0 && digits < head && site[head - 1 - digits] == ':';
    p->line_len = has_line ? digits + 1 : 0;
    p->frame = site;
    p->frame_len = head - p->line_len;
    p->line = site + p->frame_len;
}

size_t hs_site_min_width(const char *site) {
    site_parts p;
    split_site(site, &p);
    size_t frame_w = width_of(p.frame, p.frame_len);
    return (frame_w < HS_SITE_CUT_MIN_FRAME ? frame_w : HS_SITE_CUT_MIN_FRAME) +
           width_of(p.line, p.line_len) + width_of(p.cls, p.cls_len);
}

void hs_site_cut(hs_text *out, const char *site, size_t columns) {
    size_t whole = hs_display_width(site);
    if (columns == 0 || whole <= columns) {
        hs_text_puts(out, site);
        return;
    }
    site_parts p;
    split_site(site, &p);
    size_t line_w = width_of(p.line, p.line_len), cls_w = width_of(p.cls, p.cls_len);
    size_t frame_w = width_of(p.frame, p.frame_len);
    size_t min_frame = frame_w < HS_SITE_CUT_MIN_FRAME ? frame_w : HS_SITE_CUT_MIN_FRAME;
    if (line_w + cls_w + min_frame <= columns) { /* the frame's middle alone */
        append_middle_cut(out, p.frame, p.frame_len, columns - line_w - cls_w);
        hs_text_append(out, p.line, p.line_len);
        hs_text_append(out, p.cls, p.cls_len);
        return;
    }
    /* Narrower still: the frame gets down to HS_SITE_CUT_MIN_PART columns to keep the class
     * whole; a class too long for that shares what is left with the frame (the frame a
     * third, at least HS_SITE_CUT_MIN_PART), both cut in their middle. */
    size_t sep = strlen(ARROW_SEPARATOR), arrow_w = hs_display_width(ARROW_SEPARATOR);
    size_t room = columns > line_w + arrow_w ? columns - line_w - arrow_w : 0;
    size_t class_w = cls_w > arrow_w ? cls_w - arrow_w : 0;
    if (p.cls_len > sep && room >= 2 * HS_SITE_CUT_MIN_PART) {
        size_t frame_room = room / 3 > HS_SITE_CUT_MIN_PART ? room / 3 : HS_SITE_CUT_MIN_PART;
        if (class_w + HS_SITE_CUT_MIN_PART <= room) frame_room = room - class_w; /* class whole */
        if (frame_room > frame_w) frame_room = frame_w;
        append_middle_cut(out, p.frame, p.frame_len, frame_room);
        hs_text_append(out, p.line, p.line_len);
        hs_text_puts(out, ARROW_SEPARATOR);
        append_middle_cut(out, p.cls + sep, p.cls_len - sep, room - frame_room);
        return;
    }
    append_end_cut(out, site, strlen(site), columns);
}
