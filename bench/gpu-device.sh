#!/usr/bin/env bash
# One visit to a lent GPU machine (no Node, no network): everything issue 43 asks to measure, in one call.
# Here first: npm run build && bash ../shared/gpu/make-kit.sh   (builds .device-kit/, ignored by git)
# Then the device tool: command "bash bench/gpu-device.sh", carry [".device-kit", "dist"], timeout_s 540.
# Writes to $OUT (the device tool brings it back): gpu.jsonl (bench:gpu's lines, n = 16..21: append them to
# bench/results/gpu.jsonl), bench.txt, probe.jsonl (bench/gpu-probe.mjs: the shader's variants on one batch),
# sizes.jsonl and layouts.jsonl (bench/gpu-layouts.mjs: whole counts of n = 19 and 20 with the dispatches
# sized in five ways, and with lookahead 0 to 3), dispatches.jsonl (the dispatch log and phases of n = 20),
# nvidia-smi.csv. Each step is bounded (510 s in all), so a slow GPU cannot eat the visit.
set -u
out=${OUT:-bench/results/device}
mkdir -p "$out"
kit=.device-kit/on-device.sh # unpacks Node, Dawn and the Vulkan loader, then execs the command (so timeout reaches it)
nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv -l 1 >"$out/nvidia-smi.csv" 2>&1 &
smi=$!
# on-device.sh's own lines about the machine go to bench.txt, so the .jsonl files hold JSON lines only.
# The counts with the package's defaults, the CPU join beside each n.
timeout 50 bash $kit node bench/gpu.mjs --from 16 --to 19 --results "$out/gpu.jsonl" 2>&1 | tee -a "$out/bench.txt"
timeout 40 bash $kit node bench/gpu.mjs --from 20 --to 20 --results "$out/gpu.jsonl" 2>&1 | tee -a "$out/bench.txt"
# Whole counts with the dispatches grown towards 100 ms (the default), fixed at the old size, and towards 200, 400, 50 ms.
timeout 40 bash $kit node bench/gpu-layouts.mjs 19 19 2 --sizes 2>>"$out/bench.txt" | grep --line-buffered '^{' >"$out/sizes.jsonl"
timeout 60 bash $kit node bench/gpu-layouts.mjs 20 20 1 --sizes 2>>"$out/bench.txt" | grep --line-buffered '^{' >>"$out/sizes.jsonl"
# Where the shader's time goes (its variants on one batch).
timeout 50 bash $kit node bench/gpu-probe.mjs 3 2>>"$out/bench.txt" | grep --line-buffered '^{' >"$out/probe.jsonl"
# Whole counts with the shader's lookahead 0 to 3 (n = 19 twice, so the second round's pipelines are warm; n = 20 once).
timeout 30 bash $kit node bench/gpu-layouts.mjs 19 19 2 2>>"$out/bench.txt" | grep --line-buffered '^{' >"$out/layouts.jsonl"
timeout 50 bash $kit node bench/gpu-layouts.mjs 20 20 1 2>>"$out/bench.txt" | grep --line-buffered '^{' >>"$out/layouts.jsonl"
# The dispatch log of n = 20: each dispatch's units, ms from submission and ms on the GPU (is the GPU ever idle?).
timeout 40 bash $kit node bench/gpu-dispatches.mjs 20 20 2>>"$out/bench.txt" | grep --line-buffered '^{' >"$out/dispatches.jsonl"
# n = 21 last and alone, without the CPU join (about 2-3 minutes on 16 threads), so that its GPU time fits.
timeout 150 bash $kit node bench/gpu.mjs --from 21 --to 21 --no-cpu --results "$out/gpu.jsonl" 2>&1 | tee -a "$out/bench.txt"
kill "$smi" 2>/dev/null
cat "$out/sizes.jsonl" "$out/probe.jsonl" "$out/layouts.jsonl"
cut -c1-200 "$out/dispatches.jsonl"
