/* sampler_bias.h: which JVMs' JEP 331 sampler is biased (JDK-8356372), and what to tell
 * the user about it.
 *
 * HotSpot 11 to 24 (fixed in JDK 25 by openjdk/jdk pull 25114; not backported: the
 * Debian 11.0.24 and 21.0.13 and 17.0.x builds still have ThreadHeapSampler::
 * check_for_sampling) decides samples only at slow-path points: TLAB refills, hits of the
 * TLAB's artificial end at the next sampling point, and allocations outside a TLAB. Its
 * countdown U (bytes to the next sample, exponential with mean I = interval) is decreased by
 * the TLAB bytes only when one of those points is reached. An allocation of S bytes made
 * outside the TLAB (an object that does not fit in what is left of a TLAB that is kept
 * because the rest is too big to waste) is compared with that stale countdown:
 * check_for_sampling(obj, S, 0) samples it iff S >= U, while the t bytes the thread has
 * allocated in its TLAB since the last slow-path point are not subtracted. Given that no
 * sample point was reached in those t bytes (U > t; memoryless), the object is sampled with
 *
 *     p_old = P(U <= S | U > t) = 1 - exp(-(S - t) / I)   if S > t,   0 otherwise,
 *
 * instead of p = 1 - exp(-S / I); afterwards the TLAB's sampling point is re-set U - S
 * bytes ahead, so the t bytes are dropped from the count altogether. Weighting such a
 * sample by 1/p_old would need t, which neither the JVMTI event nor anything else the
 * agent sees at the callback gives, and allocations with t >= S (the common case at the
 * default interval: t runs up to a TLAB's size) are never sampled at all, so no weight
 * can make their estimate unbiased. The bias therefore cannot be corrected per sample: the
 * agent detects the affected JVMs from java.vm.version and says so in every profile and in
 * `status`. The sampler's other bookkeeping errors of those versions (at a refill, the unused
 * tail of the old TLAB is counted as allocated, and the part of it that was left after an
 * outside allocation is counted twice) move the missed samples onto the TLAB allocations
 * around them: measured with a byte[65536] site interleaved
 * with byte[48] (SamplerBiasTest, mean of 3 runs; JDK 25: 1.011, 0.985 and 0.999, 0.997):
 *
 *              interval=512k            interval=32k
 *              large  small  total      large  small  total
 *    JDK 11    0.860  1.783  1.045      1.056  1.024  1.050
 *    JDK 17    0.787  2.022  1.034      0.966  1.102  0.993
 *    JDK 21    0.782  2.034  1.033      0.965  1.108  0.994
 *
 * Runs differ by far less than Poisson noise would make them: the old sampler is close to
 * periodic on a periodic workload, another sign that no per-sample probability describes it. */
#ifndef HS_SAMPLER_BIAS_H
#define HS_SAMPLER_BIAS_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    HS_SAMPLER_EXACT,          /* JDK 25 and later: every byte counted once */
    HS_SAMPLER_OUTSIDE_TLAB,   /* JDK 11-24: JDK-8356372, outside-TLAB objects under-sampled */
    HS_SAMPLER_UNKNOWN,        /* the version could not be read */
} hs_sampler_bias;

/* The feature release of a java.vm.version / java.version string: "11.0.24+8-post-Debian",
 * "17.0.15+6-Debian-1deb12u1", "21.0.13+9-1-deb13u2-Debian", "25.0.3+9-LTS", "25+36",
 * "1.8.0_402-b06" (8). -1 if it does not start with a number. */
int hs_java_feature_version(const char *version);

/* The sampler's bias on a JVM of that feature release (-1: unknown). */
hs_sampler_bias hs_sampler_bias_of(int feature);

/* The mean of the first sample gap HotSpot drew, at `interval`, for a thread it created
 * before any agent turned sampling on in that JVM. JDK 17+: `interval` (an exponential of
 * that mean: its log2 table is a constant). JDK 11 fills the table of its fast log2 only when sampling is first enabled
 * (ThreadHeapSampler::enable, init_log_table): a gap drawn before reads zeros there, which
 * rounds log2(q) down to a whole number, so the gap is ln 2 x interval x (26 - floor(log2 q))
 * for q uniform in [1, 2^26]: ln 2 x interval x j with probability 2^-j, of mean 2 ln 2 x
 * interval (1.39 times; never under 0.69 times). Measured: attached at interval=16k to a
 * JDK 11 whose 60 threads were parked, their site read 0.41-0.46 with the first samples
 * weighed at 16k, 0.74-0.84 at 512 KiB. feature <= 0 (unknown): `interval`. */
int64_t hs_first_gap_mean(int feature, int64_t interval);

/* Room for the note (it is shorter). */
#define HS_SAMPLER_BIAS_NOTE_MAX 1024

/* One line (no newline) saying what the bias means for the profile; "" for HS_SAMPLER_EXACT.
 * Returns the length snprintf would have written. */
int hs_sampler_bias_note(hs_sampler_bias bias, int feature, char *buf, size_t len);

/* The note for the JVM of that java.vm.version (the three above in one call). */
int hs_sampler_bias_note_for(const char *vm_version, char *buf, size_t len);

#endif
