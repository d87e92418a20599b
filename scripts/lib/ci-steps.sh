# Sourced by scripts/test.sh: the steps of a CI run, their wall times and background jobs.
#   step NAME                 -> ends the step before, prints "== NAME (Ns since the start, disk free)"
#   background NAME ID [--after ID2] CMD...
#                             -> runs CMD in the background (its own process group), its output in
#                                build/ci-logs/ID.log; a step that needs it calls `await ID`. With
#                                --after, CMD starts when job ID2 has ended (whatever its status)
#   await ID                  -> waits for job ID, prints its log (indented) and its time; exits
#                                non-zero (the run fails) when the job failed; no-op for an unknown ID
# On exit (success or failure) the table of every step's and job's wall time is printed; jobs
# still running then are awaited (success) or stopped (failure).
ci_t0=$(date +%s)
ci_logs=$PWD/build/ci-logs
rm -rf "$ci_logs"; mkdir -p "$ci_logs"
declare -a ci_rows=()
declare -A ci_pid=() ci_name=() ci_start=() ci_done=()
ci_step="" ci_step_t=0

ci_free() { df -h --output=avail . | tail -1 | tr -d ' '; }
ci_end_step() {
  [ -z "$ci_step" ] || ci_rows+=("$(printf '  %6ss  %s' "$(( $(date +%s) - ci_step_t ))" "$ci_step")")
  ci_step=""
}
step() {
  ci_end_step
  ci_step=$1 ci_step_t=$(date +%s)
  echo; echo "== $1 ($(( ci_step_t - ci_t0 ))s, $(ci_free) free)"
}
background() {
  local name=$1 id=$2 after=/dev/null note=""; shift 2
  if [ "$1" = --after ]; then
    [ -z "${ci_pid[$2]:-}" ] || { after=$ci_logs/$2.end note="; starts when '${ci_name[$2]}' ends"; }
    shift 2
  fi
  ci_name[$id]=$name ci_start[$id]=$(date +%s)
  echo "-- background: $name (log: build/ci-logs/$id.log$note)"
  setsid bash -c 'while [ ! -e "$1" ]; do sleep 2; done; shift; date +%s >"$0.start"
    "$@" >"$0.log" 2>&1; echo $? >"$0.rc"; date +%s >"$0.end"' "$ci_logs/$id" "$after" "$@" </dev/null &
  ci_pid[$id]=$!
}
ci_wait() { # ID: waits, prints the job's log and time; returns the job's exit status
  local id=$1 rc t end
  [ -n "${ci_pid[$id]:-}" ] && [ -z "${ci_done[$id]:-}" ] || return 0
  ci_end_step   # the wait is not the step's time: it gets a row of its own
  t=$(date +%s)
  wait "${ci_pid[$id]}" || true
  ci_done[$id]=1
  [ $(( $(date +%s) - t )) -lt 1 ] || ci_rows+=("$(printf '  %6ss  %s' "$(( $(date +%s) - t ))" "waiting for: ${ci_name[$id]}")")
  rc=$(cat "$ci_logs/$id.rc" 2>/dev/null || echo 1)
  end=$(cat "$ci_logs/$id.end" 2>/dev/null || date +%s)
  ci_start[$id]=$(cat "$ci_logs/$id.start" 2>/dev/null || echo "${ci_start[$id]}")
  echo; echo "-- background job done: ${ci_name[$id]} (exit status $rc, $(( end - ci_start[$id] ))s; waited for it $(( $(date +%s) - t ))s)"
  [ ! -f "$ci_logs/$id.log" ] || sed 's/^/  | /' "$ci_logs/$id.log"
  ci_rows+=("$(printf '  %6ss  %s' "$(( end - ci_start[$id] ))" "(background) ${ci_name[$id]}$([ "$rc" = 0 ] || echo " FAILED")")")
  [ "$rc" = 0 ] || { echo "background job '${ci_name[$id]}' failed (exit status $rc): its log is above" >&2; return 1; }
}
await() { ci_wait "$1" || exit 1; }
ci_finish() {
  local rc=$? id
  set +e   # the table is printed whatever fails below
  [ "$rc" = 0 ] || [ -z "$ci_step" ] || ci_step="$ci_step FAILED"
  ci_end_step
  for id in "${!ci_pid[@]}"; do
    [ -z "${ci_done[$id]:-}" ] || continue
    if [ "$rc" = 0 ]; then ci_wait "$id" || rc=1
    else
      kill -- -"${ci_pid[$id]}" 2>/dev/null || true
      echo "-- stopped background job ${ci_name[$id]} (the run failed); its log so far:"
      [ ! -f "$ci_logs/$id.log" ] || sed 's/^/  | /' "$ci_logs/$id.log"
    fi
  done
  echo; echo "== wall time of each step (background jobs ran beside the steps)"
  printf '%s\n' "${ci_rows[@]}"
  printf '  %6ss  %s\n' "$(( $(date +%s) - ci_t0 ))" "total (exit status $rc)"
  exit "$rc"
}
trap ci_finish EXIT
