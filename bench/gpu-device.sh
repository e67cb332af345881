#!/usr/bin/env bash
# One visit to a lent GPU machine (no Node, no network): what issue 43 asks to measure, in one call (about 120 s).
# Here first: npm run build && bash ../shared/gpu/make-kit.sh   (builds .device-kit/, ignored by git)
# Then the device tool: command "bash bench/gpu-device.sh", carry [".device-kit", "dist"], timeout_s 200.
# Writes to $OUT (the device tool brings it back): gpu.jsonl (bench:gpu's lines: n = 18..21, two runs; append
# them to bench/results/gpu.jsonl), bench.txt, dispatches.jsonl (bench/gpu-dispatches.mjs: n = 20's dispatches),
# overlap.jsonl (bench/gpu-overlap.mjs), host.jsonl (bench/gpu-host.mjs), nvidia-smi.csv (the GPU's use each second: where it idles), sigint.txt
# and a JSON line in bench.txt (Ctrl-C during count 21 --engine webgpu: exit 130 expected). Each step
# is bounded, the most wanted first. To compare candidates, add a step with bench/gpu-layouts.mjs (--plans,
# --groups, --backs, --ramp, ...); docs/engines.md has what the visits of 2026-11-26 to 28 measured with them.
set -u
out=${OUT:-bench/results/device}
mkdir -p "$out"
kit=.device-kit/on-device.sh # unpacks Node, Dawn and the Vulkan loader, then execs the command (so timeout reaches it)
nvidia-smi --query-gpu=timestamp,utilization.gpu,clocks.sm --format=csv -l 1 >"$out/nvidia-smi.csv" 2>&1 &
smi=$!
# on-device.sh's own lines about the machine go to bench.txt, so the .jsonl files hold JSON lines only.
# Issue 43's four counts in one run, then a second run: the spread between runs is about 10% at n = 20.
for run in 1 2; do
  timeout 60 bash $kit node bench/gpu.mjs --from 18 --to 21 --no-cpu --results "$out/gpu.jsonl" 2>&1 | tee -a "$out/bench.txt"
done
# The host's share of n = 18..20 on a device that does nothing (3 rounds, about 10 s): whether n = 18 waits on the host.
timeout 40 bash $kit node bench/gpu-host.mjs 18 20 3 2>>"$out/bench.txt" | grep --line-buffered '^{' >"$out/host.jsonl"
# n = 20's dispatches one by one: units, ms from submission, ms on the GPU (where its 2.5 s go).
timeout 20 bash $kit node bench/gpu-dispatches.mjs 20 20 2>>"$out/bench.txt" | grep --line-buffered '^{' >"$out/dispatches.jsonl"
# Whether the GPU overlaps a dispatch with the last one's end (about 5 s).
timeout 30 bash $kit node bench/gpu-overlap.mjs 3 2>>"$out/bench.txt" | grep --line-buffered '^{' >"$out/overlap.jsonl"
# Ctrl-C on a real GPU: the CLI's count of n = 21 (about 20 s) interrupted 5 s in must end with exit 130 within a dispatch
# or so (issue 43: abort within 100 ms of the dispatch in flight). Job control on, so the background node is not
# started with SIGINT ignored, as a script's background jobs are.
set -m
bash $kit node dist/cli/main.js count 21 --engine webgpu 2>"$out/sigint.txt" &
counting=$!
sleep 5
sent=$(date +%s%N)
kill -INT "$counting"
wait "$counting"
code=$?
set +m
echo "{\"sigint\":\"count 21 --engine webgpu\",\"exit\":$code,\"msToExit\":$((($(date +%s%N) - sent) / 1000000))}" | tee -a "$out/bench.txt"
kill "$smi" 2>/dev/null
cat "$out/overlap.jsonl"
cut -c1-300 "$out/dispatches.jsonl"
