"""Running as a service: `ingest run` as a process (locks, signals, faults, damage, durability, logs,
upgrades, worker pool); helpers.py starts and watches it."""
