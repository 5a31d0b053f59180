/* survival.h: survival-weighted sampling: how much more likely than the rest an offered
 * sample is to be kept by the rate cap, by what predicts that its object will survive.
 *
 * The live view is what a leak or a large retained set shows in, and a sample whose object
 * dies young adds nothing to it. Under the rate cap (throttle.h) every offer is a candidate
 * with probability 1 - (1 - p)^f, f its factor here, and weighs the inverse of that, so
 * the allocation and in-use estimates stay unbiased site by site whatever the factors; the
 * cap sets p against the offers' factors summed, so the kept rate stays the cap's.
 *
 * The factor is looked up by (allocated class id, size class = floor(log2 size)), the two
 * things the allocation callback knows before it walks the stack, hashed into a fixed
 * table of HS_SURVIVAL_SLOTS slots (two keys sharing a slot share a factor: the estimates
 * stay unbiased, only the gain is diluted). Learned as the run goes: after each GC the
 * sweeper reports every tracked sample that reached HS_SURVIVAL_AGE GCs (survived) or died
 * before (died young); G1 humongous samples, which the sweeper cannot see, are reported by
 * the heap walk of each dump instead (humongous.h). A slot's survival fraction s, shrunk
 * toward the run's overall fraction by HS_SURVIVAL_PRIOR pseudo-samples and with its
 * counts halved past HS_SURVIVAL_MEMORY (it follows a program whose behaviour changes),
 * gives
 *     f = sqrt(1 + (HS_SURVIVAL_MAX^2 - 1) s),   1 <= f <= HS_SURVIVAL_MAX.
 * Why the square root: keeping an offer with probability q costs one sample and adds
 * y^2 (1/q - 1) to the variance of an estimate it contributes y to; over a budget of
 * samples, the variance of the in-use estimate is least with q proportional to the root of
 * E[y^2], the survival fraction (Neyman allocation). The floor (f >= 1: q >= p, never 0,
 * with at most HS_SURVIVAL_MAX times more than the least likely) keeps the allocation
 * profile of short-lived sites within a factor sqrt(HS_SURVIVAL_MAX) of its precision.
 * A slot never learned has the overall fraction's factor; before any GC, every factor is 1
 * (the cap as without this module).
 *
 * Concurrency: factors are one relaxed atomic word per slot, written by the learner (one
 * thread at a time: the sweeper, or a dump judging humongous objects, both under the live
 * tracker's sweep lock) and read by the allocation callbacks: no lock, no malloc. */
#ifndef HS_SURVIVAL_H
#define HS_SURVIVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HS_SURVIVAL_SLOTS 2048
#define HS_SURVIVAL_AGE 2       /* GCs a tracked sample must live through to count as survived */
#define HS_SURVIVAL_MAX 8.0     /* the highest factor (the lowest is 1) */
#define HS_SURVIVAL_PRIOR 4.0   /* pseudo-samples at the overall fraction, per slot */
/* Survivors learned before the selectivity is judged (1 until then): it is a ratio of means
 * over the survivors, known to about 1/sqrt(n) at best, and early in a run the few that
 * have survived two GCs are mostly in a handful of small slots (the program's startup)
 * whose factors are high: a program with nothing to choose among read 1.5-1.95 on its first
 * 5-20 survivors and 1.0-1.2 later, and the interval control followed it into its
 * selective band and back (RateBudgetTest). At 100, a reading of 1.5 is 5 standard errors
 * from 1. */
#define HS_SURVIVAL_EVIDENCE 100
#define HS_SURVIVAL_MEMORY 256.0 /* a slot's outcomes are halved past this many */

typedef struct hs_survival hs_survival;

/* NULL on ENOMEM. */
hs_survival *hs_survival_create(void);
void hs_survival_destroy(hs_survival *s);

/* Hot path: the factor (1..HS_SURVIVAL_MAX) of an offer of this class id and size.
 * NULL: 1. */
double hs_survival_factor(const hs_survival *s, uint32_t class_id, uint64_t size);

/* The slot (0 .. HS_SURVIVAL_SLOTS - 1) of this class id and size: what a tracked sample
 * keeps to be learned from without its key (hs_survival_learn_slot). Pure. */
uint16_t hs_survival_slot(uint32_t class_id, uint64_t size);

/* Learner: one tracked sample's outcome (survived HS_SURVIVAL_AGE GCs, or died before). */
void hs_survival_learn(hs_survival *s, uint32_t class_id, uint64_t size, bool survived);
/* The same by the sample's slot (hs_survival_slot). */
void hs_survival_learn_slot(hs_survival *s, uint16_t slot, bool survived);

/* Learner: publishes the factors from the outcomes learned so far (after a sweep, at most
 * every 250 ms: live_tracker.c; at once after a heap walk that learned something). */
void hs_survival_publish(hs_survival *s);

/* The outcome, if any, a sweep of GC epoch `epoch` learns from a tracked sample born at
 * GC epoch `born`, when the previous sweep saw epoch `previous`: 1 survived (it reached
 * HS_SURVIVAL_AGE GCs since), 0 died young (dead now, younger than that at the previous
 * sweep), -1 nothing new. */
int hs_survival_outcome(uint32_t born, uint32_t previous, uint32_t epoch, bool dead);

typedef struct {
    uint64_t outcomes;  /* learned so far */
    uint64_t survived;  /* of them */
    uint32_t slots;     /* slots that have learned something */
    double highest;     /* the highest factor published */
    double selectivity; /* hs_survival_selectivity */
} hs_survival_stats;

void hs_survival_stats_read(const hs_survival *s, hs_survival_stats *out);

/* How much the factors favour what survives: the mean factor of the offers whose objects
 * survive over the mean factor of all offers, as of the last publication (1 before any,
 * before HS_SURVIVAL_EVIDENCE survivors, or for NULL). Estimated from the learned outcomes
 * per slot: a slot's kept samples stand for about 1/f as many offers of its factor f
 * (exact while the cap keeps few: q ~ f p). 1 when every offer has the same factor, or
 * survivors are spread over the factors like the offers: then the offers beyond those kept
 * buy nothing; it is the most the survivors' share of the kept samples can grow over their
 * share of the offers. */
double hs_survival_selectivity(const hs_survival *s);

/* One status line, without '\n', for the profile comments and the exit log ("survival
 * factors: off" for NULL). Returns the length needed (like snprintf). */
size_t hs_survival_format_status(const hs_survival *s, char *buf, size_t len);

#endif
