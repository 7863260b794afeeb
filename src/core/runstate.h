/* runstate: the states of a measuring run, as the engine goes through them
 * and the screens show them (a plain enum: screens need no engine header
 * for it). Pure. */
#ifndef FLOPSCOPE_RUNSTATE_H
#define FLOPSCOPE_RUNSTATE_H

typedef enum EngineState {
	ENGINE_READY,    /* created, thread not started */
	ENGINE_GROWING,  /* dispatches below target/10: x10 per step */
	ENGINE_STEADY,   /* rescaled to the target time */
	ENGINE_PAUSED,
	ENGINE_DONE,     /* duration reached or stopped on request */
	ENGINE_ERROR,    /* see engine_error() */
	ENGINE_STATE_COUNT
} EngineState;

/* "ready", "growing", "at target", ...: the state as the screens name it. */
static inline const char *engine_state_str(EngineState s)
{
	static const char *const names[ENGINE_STATE_COUNT] = {
		"ready", "growing", "at target", "paused", "done", "error",
	};
	return (unsigned)s < ENGINE_STATE_COUNT ? names[s] : "?";
}

#endif
