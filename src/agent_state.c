/* agent_state.c: the one hs_agent of this process (see agent.h).
 *
 * A static object, never freed: a callback that races with shutdown can always read
 * its phase, whatever has been torn down behind it. */
#include "agent.h"

static hs_agent the_agent;

hs_agent *hs_agent_get(void) { return &the_agent; }
