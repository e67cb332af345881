#!/usr/bin/env bash
# One visit to a lent GPU machine (no Node, no network): what issue 43 asks to measure, in one call.
# Here first: npm run build && bash ../shared/gpu/make-kit.sh   (builds .device-kit/, ignored by git)
# Then the device tool: command "bash bench/gpu-device.sh", carry [".device-kit", "dist"], timeout_s 300.
# Writes to $OUT (the device tool brings it back): gpu.jsonl (bench:gpu's lines: n = 18..21 in one run, then
# n = 16..20 with the CPU join beside each; append them to bench/results/gpu.jsonl), bench.txt, layouts.jsonl
# (bench/gpu-layouts.mjs at n = 20: the dispatches' tails and growth, then the shader's layouts), open.jsonl (bench/gpu-open.mjs:
# where the first count's time goes before it counts), probe.jsonl (bench/gpu-probe.mjs: the shader's variants
# on one batch), dispatches.jsonl (bench/gpu-dispatches.mjs: n = 20's dispatches), nvidia-smi.csv. Each step is
# bounded (275 s in all), the most wanted first.
set -u
out=${OUT:-bench/results/device}
mkdir -p "$out"
kit=.device-kit/on-device.sh # unpacks Node, Dawn and the Vulkan loader, then execs the command (so timeout reaches it)
nvidia-smi --query-gpu=timestamp,utilization.gpu,clocks.sm --format=csv -l 1 >"$out/nvidia-smi.csv" 2>&1 &
smi=$!
# on-device.sh's own lines about the machine go to bench.txt, so the .jsonl files hold JSON lines only.
# Issue 43's four counts in one run.
timeout 60 bash $kit node bench/gpu.mjs --from 18 --to 21 --no-cpu --results "$out/gpu.jsonl" 2>&1 | tee -a "$out/bench.txt"
# How dispatches end and grow: finer tails (2, none, 4 an invocation), growth up to 4x or 2x (n = 20, 3 rounds),
# then the shader's layouts
# (lookahead 1 to 3, workgroups of 32, the table's pair carried; n = 20 once).
timeout 50 bash $kit node bench/gpu-layouts.mjs 20 20 3 --ramp 2>>"$out/bench.txt" | grep --line-buffered '^{' >"$out/layouts.jsonl"
timeout 30 bash $kit node bench/gpu-layouts.mjs 20 20 1 2>>"$out/bench.txt" | grep --line-buffered '^{' >>"$out/layouts.jsonl"
# n = 20's dispatches one by one: units, ms from submission, ms on the GPU (where its 2.5 s go).
timeout 20 bash $kit node bench/gpu-dispatches.mjs 20 20 2>>"$out/bench.txt" | grep --line-buffered '^{' >"$out/dispatches.jsonl"
timeout 20 bash $kit node bench/gpu-open.mjs 18 2>>"$out/bench.txt" | grep --line-buffered '^{' >"$out/open.jsonl"
# Where the shader's time goes (its variants on one batch).
timeout 40 bash $kit node bench/gpu-probe.mjs 3 2>>"$out/bench.txt" | grep --line-buffered '^{' >"$out/probe.jsonl"
# n = 16..20 again, with the CPU join on every core beside each.
timeout 55 bash $kit node bench/gpu.mjs --from 16 --to 20 --results "$out/gpu.jsonl" 2>&1 | tee -a "$out/bench.txt"
kill "$smi" 2>/dev/null
cat "$out/open.jsonl"
cut -c1-200 "$out/probe.jsonl" "$out/layouts.jsonl" "$out/dispatches.jsonl"
