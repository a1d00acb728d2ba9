# What the GPU call scripts of issue 11 share, from lab J1 on (the earlier ones, records of what ran,
# each carry a copy). A script sources it with the call's name and, optionally, the folder of .gpu/
# whose commit.txt says what the call carried:
#   . "$(dirname "$0")/../call_lib.sh" NAME [FOLDER]
# It sets G (the script's folder), root (the repository on the GPU machine), X ($root/.gpu, the
# renderings carried with the call), R (/tmp/res_NAME, emptied) and start; elapsed prints the seconds
# since start; pack tars R into $OUT/res_NAME.tgz through a temporary name, so that a call cut off by
# its limit still returns what it had packed, and a failed tar leaves the last archive. A file that
# changes while tar reads it (a log that a job beside it still writes: GNU tar then exits 1) does not
# fail the pack; that file's copy is then cut short in that archive. It records X/FOLDER/commit.txt,
# nvidia-smi and torch's versions in R. (Labs J1 to J4 ran the version of commit b142633, which took
# no FOLDER and copied only X/commit.txt, and whose pack replaced the archive whatever tar did; calls
# L1 to L5 ran the version of commit 7b17410, whose pack dropped an archive that tar exited 1 on.)
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
  t=$(mktemp -p "$OUT" ".res_$call_name.XXXXXX") || return 1
  tar czf "$t" --warning=no-file-changed -C /tmp "res_$call_name" 2>/dev/null
  if [ $? -le 1 ]; then mv -f "$t" "$OUT/res_$call_name.tgz"; else rm -f "$t"; fi
}
[ -f "$X/${2:-.}/commit.txt" ] && cp "$X/${2:-.}/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi.txt" 2>&1
python3 -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.device_count())' > "$R/torch.txt" 2>&1
