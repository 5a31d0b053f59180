/* perfdata.c: reading the attach capability from hsperfdata bytes (see perfdata.h). */
#include "perfdata.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum {
    PROLOGUE_SIZE = 32, BYTE_ORDER_AT = 4, MAJOR_AT = 5, ACCESSIBLE_AT = 7,
    ENTRY_OFFSET_AT = 24, NUM_ENTRIES_AT = 28,
    ENTRY_HEAD = 20, ENTRY_NAME_AT = 4, ENTRY_VECTOR_AT = 8, ENTRY_TYPE_AT = 12, ENTRY_DATA_AT = 16,
};

static uint32_t u32(const unsigned char *p, bool little) {
    return little ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
                  : (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
}

int cli_perfdata_attach(const unsigned char *buf, size_t len) {
    static const unsigned char magic[4] = {0xCA, 0xFE, 0xC0, 0xC0};
    static const char counter[] = "sun.rt.jvmCapabilities";
    if (len < PROLOGUE_SIZE || memcmp(buf, magic, 4) != 0 || buf[BYTE_ORDER_AT] > 1 || buf[MAJOR_AT] != 2 ||
        !buf[ACCESSIBLE_AT])
        return -1;
    bool little = buf[BYTE_ORDER_AT] == 1;
    size_t at = u32(buf + ENTRY_OFFSET_AT, little);
    uint32_t entries = u32(buf + NUM_ENTRIES_AT, little);
    for (uint32_t i = 0; i < entries && at <= len && len - at >= ENTRY_HEAD; i++) {
        const unsigned char *e = buf + at;
        size_t entry_len = u32(e, little), name_at = u32(e + ENTRY_NAME_AT, little);
        size_t data_at = u32(e + ENTRY_DATA_AT, little), vector = u32(e + ENTRY_VECTOR_AT, little);
        if (entry_len < ENTRY_HEAD || entry_len > len - at) return -1;
        if (name_at < entry_len && entry_len - name_at > sizeof counter - 1 &&
            memcmp(e + name_at, counter, sizeof counter) == 0) {
            if (e[ENTRY_TYPE_AT] != 'B' || vector == 0 || data_at >= entry_len || entry_len - data_at < 1) return -1;
            return e[data_at] == '1' ? 1 : e[data_at] == '0' ? 0 : -1;
        }
        at += entry_len;
    }
    return -1;
}
