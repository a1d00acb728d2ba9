# What the GPU call scripts of issue 11 share, from call J1 on (the earlier ones, records of what ran,
# each carry a copy). A script sources it with the call's name:
#   . "$(dirname "$0")/../call_lib.sh" NAME
# It sets G (the script's folder), root (the repository on the GPU machine), X ($root/.gpu, the
# renderings carried with the call), R (/tmp/res_NAME, emptied) and start; elapsed prints the seconds
# since start; pack tars R into $OUT/res_NAME.tgz through a temporary name, so that a call cut off by
# its limit still returns what it had packed. It records nvidia-smi and torch's versions in R.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
call_name=$1
G=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$G" rev-parse --show-toplevel 2>/dev/null || pwd)
X=$root/.gpu
R=/tmp/res_$call_name
rm -rf "$R" && mkdir -p "$R"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
pack() {
  local t
  t=$(mktemp -p "$OUT" ".res_$call_name.XXXXXX") && tar czf "$t" -C /tmp "res_$call_name" 2>/dev/null
  mv -f "$t" "$OUT/res_$call_name.tgz"
}
[ -f "$X/commit.txt" ] && cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi.txt" 2>&1
python3 -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.device_count())' > "$R/torch.txt" 2>&1
