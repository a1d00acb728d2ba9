#!/usr/bin/env bash
# prepare_j.sh: the renderings that labs J1 to J4 carried in .gpu/, made again. Written after the labs,
# from the steps that this session took by hand then: `scaffold gpu-bundle` of 9ae7143; its LayerNorm,
# residual-add LayerNorm and RMSNorm projects as they are (old) and with csrc/row_norm/cuda.cuh
# rendered from the template's file with a patch applied (its one Jinja expression, {{ namespace }},
# replaced by the project's namespace). J1: .gpu/j/{old,new} (new: j1_new.patch); J2: .gpu/j2/{old,S,SA}
# (S.patch, SA.patch); J3 and J4: .gpu/j3/layer_norm (old). Each folder gets a commit.txt.
# Usage: from the repository root, with the venv that the README sets up active: bash <this file>
set -eu
J=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$J" rev-parse --show-toplevel)
W=/tmp/prepare_j_worktree
B=/tmp/prepare_j_bundle
rm -rf "$B" && git -C "$root" worktree remove --force "$W" 2>/dev/null || true
git -C "$root" worktree add --detach "$W" 9ae7143 > /dev/null
(cd "$W" && python -m scaffold gpu-bundle "$B" > /dev/null)  # the worktree's scaffold, so 9ae7143's template
PROJECTS=(layer_norm fused_add_layer_norm rmsnorm)
variant() {  # variant DEST NAME [PATCH]
  local dest=$root/.gpu/$1/$2 patch=${3:-} p ns
  mkdir -p "$dest"
  for p in "${PROJECTS[@]}"; do
    cp -r "$B/$p" "$dest/"
    if [ -n "$patch" ]; then
      git -C "$W" apply "$J/$patch"
      ns=$(sed -n 's/^namespace \([a-z_]*\)::row_norm::cuda {$/\1/p' "$B/$p/csrc/row_norm/cuda.cuh")
      sed "s/{{ namespace }}/$ns/" "$W/template/csrc/row_norm/cuda.cuh.jinja" > "$dest/$p/csrc/row_norm/cuda.cuh"
      git -C "$W" checkout -- template/csrc/row_norm/cuda.cuh.jinja
    fi
  done
}
rm -rf "$root/.gpu/j" "$root/.gpu/j2" "$root/.gpu/j3"
variant j old && variant j new j1_new.patch
echo "old: scaffold gpu-bundle of 9ae7143; new: old with csrc/row_norm/cuda.cuh from j1_new.patch" > "$root/.gpu/j/commit.txt"
variant j2 old && variant j2 S S.patch && variant j2 SA SA.patch
echo "old: scaffold gpu-bundle of 9ae7143; S, SA: old with csrc/row_norm/cuda.cuh from S.patch, SA.patch" \
  > "$root/.gpu/j2/commit.txt"
mkdir -p "$root/.gpu/j3" && cp -r "$B/layer_norm" "$root/.gpu/j3/"
echo "layer_norm: scaffold gpu-bundle of 9ae7143" > "$root/.gpu/j3/commit.txt"
git -C "$root" worktree remove --force "$W"
echo "prepared .gpu/j, .gpu/j2 and .gpu/j3"
