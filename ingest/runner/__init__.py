"""The run: list the source, decide what changed, fetch, load, clean, chunk, embed and write each
document in worker processes, record the state, and hold the guards of a service (one run at a
time, signals, machine faults retried, bounded input)."""
