#!/bin/sh
# Boot probe: prove the guest runs, then power off.
echo "guest up: $(uname -r), $(nproc) cpus"
