#!/usr/bin/env bash
# One visit to a lent GPU machine (no Node, no network): what issue 43 asks to measure, in one call.
# Here first: npm run build && bash ../shared/gpu/make-kit.sh   (builds .device-kit/, ignored by git)
# Then the device tool: command "bash bench/gpu-device.sh", carry [".device-kit", "dist"], timeout_s 300.
# Writes to $OUT (the device tool brings it back): gpu.jsonl (bench:gpu's lines: n = 18..21 in one run; append
# them to bench/results/gpu.jsonl), bench.txt, plans.jsonl (bench/gpu-layouts.mjs --plans: the plan against its
# candidates, n = 20 three interleaved rounds, n = 21 one), dispatches.jsonl (bench/gpu-dispatches.mjs: n = 20's
# dispatches), nvidia-smi.csv (the GPU's use each second: where it idles). Each step is bounded (240 s in all),
# the most wanted first. The visit of 2026-11-28 ran the layouts (--ramp, lookahead), the probe
# (bench/gpu-probe.mjs) and the open (bench/gpu-open.mjs); docs/engines.md has what they said.
set -u
out=${OUT:-bench/results/device}
mkdir -p "$out"
kit=.device-kit/on-device.sh # unpacks Node, Dawn and the Vulkan loader, then execs the command (so timeout reaches it)
nvidia-smi --query-gpu=timestamp,utilization.gpu,clocks.sm --format=csv -l 1 >"$out/nvidia-smi.csv" 2>&1 &
smi=$!
# on-device.sh's own lines about the machine go to bench.txt, so the .jsonl files hold JSON lines only.
# Issue 43's four counts in one run.
timeout 60 bash $kit node bench/gpu.mjs --from 18 --to 21 --no-cpu --results "$out/gpu.jsonl" 2>&1 | tee -a "$out/bench.txt"
# The plan against its candidates (bench/gpu-layouts.mjs --plans): n = 20 six layouts, three interleaved
# rounds (about 50 s); n = 21 the plan, dispatches up to 16,777,216 units at 400 ms and 13 rows left, once.
timeout 70 bash $kit node bench/gpu-layouts.mjs 20 20 3 --plans 2>>"$out/bench.txt" | grep --line-buffered '^{' >"$out/plans.jsonl"
timeout 90 bash $kit node bench/gpu-layouts.mjs 21 21 1 --plans 2>>"$out/bench.txt" | grep --line-buffered '^{' >>"$out/plans.jsonl"
# n = 20's dispatches one by one: units, ms from submission, ms on the GPU (where its 2.5 s go).
timeout 20 bash $kit node bench/gpu-dispatches.mjs 20 20 2>>"$out/bench.txt" | grep --line-buffered '^{' >"$out/dispatches.jsonl"
kill "$smi" 2>/dev/null
cut -c1-40,170-400 "$out/plans.jsonl"
cut -c1-300 "$out/dispatches.jsonl"
