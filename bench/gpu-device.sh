#!/usr/bin/env bash
# One visit to a lent GPU machine (no Node, no network): everything issue 43 asks to measure, in one call.
# Here first: npm run build && bash ../shared/gpu/make-kit.sh   (builds .device-kit/, ignored by git)
# Then the device tool: command "bash bench/gpu-device.sh", carry [".device-kit", "dist"], timeout_s 560.
# Writes to $OUT (the device tool brings it back): gpu.jsonl (bench:gpu's lines: append them to
# bench/results/gpu.jsonl), bench.txt, dispatches.jsonl (the dispatch log and phases, n = 16..20), nvidia-smi.csv.
set -u
out=${OUT:-bench/results/device}
mkdir -p "$out"
kit=.device-kit/on-device.sh # unpacks Node, Dawn and the Vulkan loader, then execs the command (so timeout reaches it)
nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv -l 1 >"$out/nvidia-smi.csv" 2>&1 &
smi=$!
# n = 8..20, then n = 21 alone, each bounded, so a slow GPU cannot eat the visit; the CPU join beside each n.
timeout 140 bash $kit node bench/gpu.mjs --from 8 --to 20 --results "$out/gpu.jsonl" 2>&1 | tee "$out/bench.txt"
timeout 150 bash $kit node bench/gpu.mjs --from 21 --to 21 --results "$out/gpu.jsonl" 2>&1 | tee -a "$out/bench.txt"
# The dispatch log with the phases of each count (device, compile, host share), the plan's cut at n = 16..17,
# then rows left 11, 12 and 13 at n = 18..20: which cut each n should get.
# (on-device.sh's own lines about the machine go to bench.txt, so dispatches.jsonl holds JSON lines only).
timeout 50 bash $kit node bench/gpu-dispatches.mjs 16 17 2>>"$out/bench.txt" | grep --line-buffered '^{' >"$out/dispatches.jsonl"
timeout 150 bash $kit node bench/gpu-dispatches.mjs 18 20 11,12,13 2>>"$out/bench.txt" | grep --line-buffered '^{' >>"$out/dispatches.jsonl"
kill "$smi" 2>/dev/null
cut -c1-160 "$out/dispatches.jsonl"
