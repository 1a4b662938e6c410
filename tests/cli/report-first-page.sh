#!/bin/bash
# The report's first page (ctest: cli.report-first-page):
#   - the plan JSON records its day and tool ("generated"), the day taken
#     from SOURCE_DATE_EPOCH when that is set;
#   - page 1 carries them and the totals: checked in the PDF's Subject,
#     which holds page 1's facts in one line (cairo keeps it uncompressed,
#     UTF-16 in hex), against the recommended costs summed from the JSON;
#   - the PDF and --first-page-png are byte-identical run after run, in
#     English and in Chinese.
#
#   report-first-page.sh GPUPLAN        (run from the source root)
set -u
gp=$1
work=$(mktemp -d /tmp/gpuplan-first-page.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail=0
say() { echo "report-first-page: $*" >&2; fail=1; }

SOURCE_DATE_EPOCH=86400 "$gp" plan --format json -o "$work/plan.json" \
	-i g4dn.xlarge,p5.48xlarge,Standard_NC24ads_A100_v4 ||
	{ say "cannot make a plan"; exit 1; }
jq -e '.generated.date == "1970-01-02"' "$work/plan.json" >/dev/null ||
	say "generated.date is not SOURCE_DATE_EPOCH's day"
version=$(sed -n 's/^project(gpuplan VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
jq -e --arg t "gpuplan $version" '.generated.tool == $t' "$work/plan.json" >/dev/null ||
	say "generated.tool is not 'gpuplan $version'"

# 274746.3 -> "274,746": as the report writes money over 100
grouped() { printf '%.0f' "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
one_off=$(grouped "$(jq '[.workloads[] | select(.kind == "training") |
	.options[.recommended].cost] | add' "$work/plan.json")")
monthly=$(grouped "$(jq '[.workloads[] | select(.kind != "training") |
	.options[.recommended].cost] | add' "$work/plan.json")")

subject() {
	perl -ne 'print pack("H*", $1) if /\/Subject <FEFF([0-9A-Fa-f]+)>/' "$1" |
		iconv -f UTF-16BE -t UTF-8
}

for lang in en zh; do
	for run in 1 2; do
		"$gp" report "$work/plan.json" --lang $lang -o "$work/$lang$run.pdf" \
			--first-page-png "$work/$lang$run.png" 2>"$work/err" ||
			{ say "$lang: report failed: $(cat "$work/err")"; continue; }
	done
	cmp -s "$work/${lang}1.pdf" "$work/${lang}2.pdf" || say "$lang: two PDFs differ"
	cmp -s "$work/${lang}1.png" "$work/${lang}2.png" || say "$lang: two first pages differ"
	head -c 8 "$work/${lang}1.png" | od -An -tx1 | grep -q '89 50 4e 47' ||
		say "$lang: --first-page-png is not a PNG"
	s=$(subject "$work/${lang}1.pdf")
	for want in "1970-01-02" "gpuplan $version" "$one_off USD" "$monthly USD"; do
		case "$s" in *"$want"*) ;; *) say "$lang: page 1 lacks '$want' (subject: $s)" ;; esac
	done
done
case "$(subject "$work/en1.pdf")" in *"One-off spend, training: $one_off USD (range"*) ;;
	*) say "en: page 1's one-off total is not '$one_off USD (range ...'" ;; esac
case "$(subject "$work/zh1.pdf")" in *"一次性支出（训练）：$one_off USD"*) ;;
	*) say "zh: page 1's one-off total is not in Chinese" ;; esac
exit $fail
