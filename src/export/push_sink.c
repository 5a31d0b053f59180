/* push_sink.c: the push queue and its retry policy (see push_sink.h). */
#include "export/push_sink.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hs_push_sink {
    hs_push_policy policy;
    hs_push_clock clock;
    hs_push_profile *ring; /* max_profiles slots, the oldest at head */
    uint32_t head;
    uint64_t next_seq;
    pthread_mutex_t lock; /* guards counters (read by other threads) */
    hs_push_counters c;
};

hs_push_verdict hs_push_classify(const hs_push_outcome *o) {
    if (o->status >= 200 && o->status < 300) return HS_PUSH_SENT;
    if (o->status == 0 || o->timed_out || o->status >= 500 || o->status == 429 ||
        o->status == 408)
        return HS_PUSH_RETRY;
    return HS_PUSH_REJECTED;
}

int64_t hs_push_backoff_ms(const hs_push_policy *p, uint32_t attempts, uint64_t random) {
    int64_t d = p->backoff_min_ms > 0 ? p->backoff_min_ms : 1;
    for (uint32_t i = 1; i < attempts && d < p->backoff_max_ms; i++) d *= 2;
    if (d > p->backoff_max_ms) d = p->backoff_max_ms;
    int64_t half = d / 2;
    return half + (int64_t)(random % (uint64_t)(d - half + 1));
}

hs_push_sink *hs_push_sink_create(const hs_push_policy *policy, const hs_push_clock *clock) {
    hs_push_sink *s = calloc(1, sizeof *s);
    uint32_t slots = policy->max_profiles ? policy->max_profiles : 1;
    if (!s || !(s->ring = calloc(slots, sizeof *s->ring))) {
        free(s);
        return NULL;
    }
    s->policy = *policy;
    s->policy.max_profiles = slots;
    s->clock = *clock;
    s->next_seq = 1;
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

static hs_push_profile *slot(hs_push_sink *s, uint32_t i) {
    return &s->ring[(s->head + i) % s->policy.max_profiles];
}

/* Removes the oldest profile; *counter (under the lock) counts why. */
static void pop(hs_push_sink *s, uint64_t *counter) {
    hs_push_profile *p = slot(s, 0);
    pthread_mutex_lock(&s->lock);
    (*counter)++;
    s->c.queued--;
    s->c.queued_bytes -= p->len;
    pthread_mutex_unlock(&s->lock);
    free(p->body);
    *p = (hs_push_profile){0};
    s->head = (s->head + 1) % s->policy.max_profiles;
}

void hs_push_sink_destroy(hs_push_sink *s) {
    if (!s) return;
    hs_push_sink_abandon(s);
    pthread_mutex_destroy(&s->lock);
    free(s->ring);
    free(s);
}

void hs_push_sink_add(hs_push_sink *s, uint8_t *body, size_t len, int64_t from, int64_t until) {
    if (len > s->policy.max_bytes) {
        free(body);
        pthread_mutex_lock(&s->lock);
        s->c.added++;
        s->c.dropped_full++;
        pthread_mutex_unlock(&s->lock);
        return;
    }
    while (s->c.queued > 0 && (s->c.queued == s->policy.max_profiles ||
                               s->c.queued_bytes + len > s->policy.max_bytes))
        pop(s, &s->c.dropped_full);
    int64_t now = s->clock.now_ms(s->clock.ctx);
    *slot(s, s->c.queued) = (hs_push_profile){.body = body, .len = len, .from = from,
                                              .until = until, .seq = s->next_seq++,
                                              .added_ms = now, .due_ms = now};
    pthread_mutex_lock(&s->lock);
    s->c.added++;
    s->c.queued++;
    s->c.queued_bytes += len;
    if (s->c.queued > s->c.peak_queued) s->c.peak_queued = s->c.queued;
    if (s->c.queued_bytes > s->c.peak_bytes) s->c.peak_bytes = s->c.queued_bytes;
    pthread_mutex_unlock(&s->lock);
}

const hs_push_profile *hs_push_sink_due(hs_push_sink *s, int64_t *wait_ms) {
    int64_t now = s->clock.now_ms(s->clock.ctx);
    while (s->c.queued > 0 && now - slot(s, 0)->added_ms > s->policy.max_age_ms)
        pop(s, &s->c.dropped_expired);
    if (s->c.queued == 0) {
        *wait_ms = -1;
        return NULL;
    }
    hs_push_profile *p = slot(s, 0);
    if (p->due_ms > now) {
        *wait_ms = p->due_ms - now;
        return NULL;
    }
    *wait_ms = 0;
    return p;
}

static void note_error(hs_push_sink *s, const hs_push_outcome *o) {
    if (o->detail[0]) snprintf(s->c.last_error, sizeof s->c.last_error, "%s", o->detail);
    else if (o->status) snprintf(s->c.last_error, sizeof s->c.last_error, "HTTP %d", o->status);
    else snprintf(s->c.last_error, sizeof s->c.last_error, "no answer");
}

hs_push_verdict hs_push_sink_settle(hs_push_sink *s, const hs_push_outcome *o) {
    hs_push_verdict v = hs_push_classify(o);
    if (s->c.queued == 0) return v;
    hs_push_profile *p = slot(s, 0);
    p->attempts++;
    if (v == HS_PUSH_SENT) {
        pop(s, &s->c.sent);
        return v;
    }
    pthread_mutex_lock(&s->lock);
    note_error(s, o);
    pthread_mutex_unlock(&s->lock);
    if (v == HS_PUSH_REJECTED) {
        pop(s, &s->c.rejected);
        return v;
    }
    int64_t wait = hs_push_backoff_ms(&s->policy, p->attempts, s->clock.random(s->clock.ctx));
    if (o->retry_after_ms >= 0)
        wait = o->retry_after_ms < s->policy.retry_after_max_ms ? o->retry_after_ms
                                                                : s->policy.retry_after_max_ms;
    p->due_ms = s->clock.now_ms(s->clock.ctx) + wait;
    pthread_mutex_lock(&s->lock);
    s->c.retried++;
    pthread_mutex_unlock(&s->lock);
    return v;
}

uint32_t hs_push_sink_abandon(hs_push_sink *s) {
    uint32_t n = 0;
    for (; s->c.queued > 0; n++) pop(s, &s->c.dropped_exit);
    return n;
}

hs_push_counters hs_push_sink_counters(hs_push_sink *s) {
    pthread_mutex_lock(&s->lock);
    hs_push_counters c = s->c;
    pthread_mutex_unlock(&s->lock);
    return c;
}
