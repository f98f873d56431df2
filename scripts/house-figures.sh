#!/usr/bin/env bash
# The house's figures (issue 32): how much the session's owner holds, and how many places name a
# method. Prints one line a figure with its goal; exits 1 when a goal is not met.
# Usage: scripts/house-figures.sh [--quiet]
set -uo pipefail
cd "$(dirname "$0")/.."
owner=(Sources/SesameService/SessionService.swift Sources/SesameService/SessionService+*.swift)
missed=0
figure() { # name value goal(max)
    local mark=ok
    if (( $2 > $3 )); then mark=MISS; missed=1; fi
    printf '%-4s %-62s %6s (goal <= %s)\n' "$mark" "$1" "$2" "$3"
}
lines=$(cat "${owner[@]}" 2>/dev/null | wc -l)
# Stored properties: declarations at the actor's top level (four spaces in) of SessionService.swift.
fields=$(grep -cE '^    (private |public |internal |fileprivate |nonisolated |private\(set\) |public private\(set\) )*(let|var) [a-zA-Z_]+ *(:|=)' \
    Sources/SesameService/SessionService.swift | head -1)
computed=$(grep -E '^    (public |private |internal |nonisolated )*var [a-zA-Z_]+ *:[^=]*\{' Sources/SesameService/SessionService.swift | wc -l)
public_funcs=$(cat "${owner[@]}" | grep -cE '^\s*(nonisolated )?public (nonisolated )?func ')
isolated=$(grep -rE 'isolated SessionService' Sources | wc -l)
machine=$(grep -rlE '\.machine\b' Sources/SesameService | grep -v 'SessionService' | xargs -r grep -hE 'service\.machine|host\.machine' | wc -l)
whiles=$(cat "${owner[@]}" | grep -cE '^\s*(repeat|while)\b')
tasks=$(grep -rE '(^|[^a-zA-Z.])Task(\.detached)? *(\{|\()' Sources/SesameService Sources/SesameSocketServer Sources/SesameCore \
    | grep -vE '^\S+:\s*//' | wc -l)
single=$(grep -rlE 'actor SingleFlight' Sources | wc -l)
names=$(git grep -lw startSignIn -- Sources clients api scripts ':!*.md' ':!api/local-api.json' \
    ':!scripts/house-figures.sh' | grep -vE '(^|/)(Tests|tests?)/|\.test\.|Tests\.swift$' \
    | xargs -r grep -Lis 'generated' | wc -l)
long=$(git ls-files '*.swift' '*.py' '*.mjs' '*.cjs' '*.ts' '*.sh' '*.c' '*.go' \
    | xargs -r wc -l 2>/dev/null | awk '$2 != "total" && $1 > 300' | wc -l)
emulator=$(find Sources/SesameEmulator -name '*.swift' | sort)
emulator_lines=$(cat $emulator | wc -l)
# Stored properties of each emulator actor and store/state type: `let`/`var` four spaces into the
# declaration's file, neither static nor a computed property (a `{` without an `=`).
emulator_fields=$(grep -lE '^(public |final )*(actor|struct [A-Za-z]*(Store|State)[ :{<])' $emulator | xargs -r awk '
    /^(public |final )*(actor|struct [A-Za-z]*(Store|State)[ :{<])/ { inside = 1; count = 0; next }
    /^}/ { if (inside && count > most) most = count; inside = 0 }
    inside && /^    ([a-z]+(\([a-z]+\))? )*(let|var) [A-Za-z_]+/ && !/ static / && !(/\{/ && !/=/) { count++ }
    END { print most + 0 }')
old_model=$(grep -rlwE 'EmulatorRequest|EmulatorReply' Sources | wc -l)
catch_all=$(grep -rF '"**"' Sources/SesameEmulator | wc -l)
figure "SessionService lines (${#owner[@]} files)" "$lines" 900
figure "SessionService stored properties" "$((fields - computed))" 8
figure "SessionService public funcs" "$public_funcs" 15
figure "helpers taking 'isolated SessionService'" "$isolated" 0
figure "'service.machine' outside the owner" "$machine" 0
figure "while/repeat loops in the owner's files" "$whiles" 0
figure "unstructured tasks (SesameService, SocketServer, Core)" "$tasks" 1
figure "SingleFlight actors" "$single" 0
figure "hand-written files naming startSignIn (not tests, docs, generated)" "$names" 8
figure "source files over 300 lines" "$long" 0
figure "emulator lines (Sources/SesameEmulator, issue 33)" "$emulator_lines" 10000
figure "emulator actor or store: most stored properties" "$emulator_fields" 8
figure "emulator files naming EmulatorRequest/EmulatorReply" "$old_model" 0
figure "emulator catch-all \"**\" routes" "$catch_all" 0
exit $missed
