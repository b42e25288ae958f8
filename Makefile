# Inter-event tracing for Linux: build, boot and test in QEMU.
# See README.md.  Everything heavy lives in rig/.

KERNEL ?= ie
TESTS_EXTRA ?=
# DEBUG=1: make check runs on the debug kernel (see rig/check.sh).
DEBUG ?= 0
# KCSAN=1: make check runs on the KCSAN kernel (see rig/check.sh).
KCSAN ?= 0
export KERNEL TESTS_EXTRA DEBUG KCSAN

# make fuzz: random differential testing against the stock kernel.
# SEEDS=1-5 (or 1,2,3) runs several seeds in one run with one summary.
SEED ?= 1
SEEDS ?= $(SEED)
N ?= 300
# make smp: the SMP tests on vCPUs that run at once (multi-threaded TCG),
# RUNS boots over.
RUNS ?= 5
# make steps: one event's triggers single-stepped, instructions by
# function, in both bench kernels (SCENARIO from rig/guest/jobs/bench.sh).
SCENARIO ?= s1

.PHONY: check demo peer bench steps fuzz smp series series-check kernel deps clean

check:
	@rig/check.sh

demo:
	@rig/demo.sh

peer:
	@rig/peer.sh

bench:
	@rig/bench.sh

steps:
	@rig/bench/steps.sh $(SCENARIO)

fuzz:
	@rig/fuzz.sh $(SEEDS) $(N)

smp:
	@rig/smp.sh $(RUNS) $(KERNEL)

series:
	@rig/series.sh $(CURDIR)/out/series

series-check:
	@rig/series-check.sh

kernel:
	@rig/build.sh $(KERNEL)

deps:
	@rig/deps.sh

clean:
	rm -rf out
