#!/usr/bin/env bash
# Lab 7, then call O (call_k.sh with CALL=o), on one H200.
set -u
B=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lab7"
OUT="$OUT/lab7" bash "$B/../gpu_lab/lab7/run_lab7.sh" | tail -40
CALL=o bash "$B/call_k.sh"
