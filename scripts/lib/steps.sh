# Sourced by scripts/test-python.sh and scripts/test-torch.sh: `step NAME COMMAND...` runs the
# command under a "== NAME (Ns)" heading and records how long it took; `print_steps TITLE` prints
# the table of those durations and the total since this file was sourced.
t0=$(date +%s)
declare -a names=() secs=()
step() {
  local name=$1; shift
  local t r=0
  t=$(date +%s)
  echo "== $name ($(( t - t0 ))s)"
  "$@" || r=$?
  names+=("$name"); secs+=($(( $(date +%s) - t )))
  return $r
}
print_steps() {
  echo
  echo "== $1"
  for i in "${!names[@]}"; do printf '  %-60s %5ss\n' "${names[$i]}" "${secs[$i]}"; done
  printf '  %-60s %5ss\n' "total" "$(( $(date +%s) - t0 ))"
}
