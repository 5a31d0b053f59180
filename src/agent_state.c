/* agent_state.c: the one hs_agent of this process (see agent.h).
 *
 * A static object, never freed: a callback that races with shutdown can always read
 * its phase, whatever has been torn down behind it. */
#include "agent.h"

static hs_agent the_agent;

hs_agent *hs_agent_get(void) { return &the_agent; }

int hs_agent_callbacks_in_flight(hs_agent *agent) {
    int sum = 0;
    for (int i = 0; i < HS_IN_FLIGHT_STRIPES; i++) sum += atomic_load(&agent->in_flight[i].count);
    return sum;
}
