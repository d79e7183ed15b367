# Everything runs from a local virtual environment made on first use: `make test` and `make demo` work on a
# fresh machine with only python3 (3.11) and the package registries.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
NSM := $(BIN)/nsm
DEMO_OUT := $(or $(TMPDIR),/tmp)/nsm-demo

.PHONY: install test lint demo models bench clean

# Exactly the torch the bundled models and figures were made with (setup.cfg asks only for torch>=2.13).
$(STAMP): setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check torch==2.13.0
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev,tables,plot,encoder,ray]'
	touch $(STAMP)

install: $(STAMP)

lint: install
	$(BIN)/ruff check nsmcli tests bench
	$(BIN)/ruff format --check nsmcli tests bench

test: lint
	$(BIN)/pytest

demo: install
	@echo "== answer the example questions with the bundled WTQ model (answer, program, SQL; after a close choice, its runner-up)"
	$(NSM) parse --questions examples/questions.tsv --runner-up
	@echo "== one question, with every intermediate result"
	$(NSM) parse "which nation ranked right before kenya?" examples/tables/medals.csv
	@echo "== execute a hand-written program on a table"
	$(NSM) execute '(filter_greater all_rows 1000000 r.population-number) (count v0)' \
		examples/tables/cities.csv --question "how many cities have more than 1,000,000 people?"
	@echo "== preprocess a bundled mini WikiTableQuestions release"
	$(NSM) preprocess wtq --data-dir examples/mini-wtq --out $(DEMO_OUT)/mini-wtq
	@echo "== your own questions and tables: preprocess them and search for their programs"
	$(NSM) preprocess tables --data-dir examples/own-data --out $(DEMO_OUT)/own
	$(NSM) explore $(DEMO_OUT)/own --split train --out $(DEMO_OUT)/own-programs.jsonl --workers 1

# The bundled models: every step is an nsm command with a fixed seed and a fixed number of processes, so
# the result is reproducible. DATA points at the official releases; the step counts are those of the
# shipped models (their runs were stopped by wall-clock limits; a step limit repeats them exactly).
#
# wtq (the default): an ensemble of a GloVe model and a MiniLM model, both trained on word-linked data with
# either-or pairs and templated questions (BENCHMARKS.md, twenty-eighth session: chosen on dev and held out
# together). The GloVe member (glove-pairs-s3): `nsm synthesize` over the trigger-word buffer (every
# template, four per table), then MAPO from scratch on the training split plus those questions, seed 3,
# two actor processes, 25,000 steps (its best dev step 15,000). The MiniLM member (minilm-ft1-synthall-s2):
# a MAPO run with the frozen MiniLM encoder and a trainable bi-LSTM over it (model.encoder_lstm), its buffer
# filled by trigger-word exploration, seed 2, two actor processes, to step 8,000; then a run started from
# its best weights (`--init`) with MiniLM's top layer unfrozen (model.encoder_train_layers=1), its buffer
# the first run's, to step 5,500; then a run started from that one on the training split plus templated
# questions over its tables (`nsm synthesize` over its buffer: every template, six per table), to step
# 1,500 (its best dev step 1,000). Both members and `glove` (wtq-glove, below; in the bundle, not a member)
# are kept in float16 (the bundle's 25 MB). `nsm synthesize`'s rules and the annotation have changed since
# the members trained, so these commands retrain the same recipe, not the same bytes.
# The wtq ensemble's chooser is a reranker (reranker.json, with the world's proposals beside the beams) and the
# matcher it weighs (matcher.pt, matcher.json: MiniLM's top two layers fine-tuned to read the question, the
# table's column names and a program's reading together). Both are fitted on the ensemble's beams of WTQ's
# pristine-seen-tables questions over random-split-1-train's tables (no split trains on them, none is asked
# of a dev table) and of CHOOSER_QUESTIONS (examples/fit, questions over users' kinds of tables, each weighing
# 3): bench/rerank_user_questions.py decodes the beams once (--cache), bench/matcher_fit.py fits the matcher
# out of fold (2 folds by table, then on all) and the reranker beside its scores (BENCHMARKS.md, thirty-eighth
# session; the L2 strength by 4-fold cross-validation, a table's user questions held out together). On users'
# tables it chooses with reranker-user.json: that reranker adjusted (`nsm rerank --questions`, starting from it)
# on USER_CHOOSER_QUESTIONS, fit rounds four to six.
# On users' own tables the wtq ensemble decodes with another MiniLM member (`user_members` in ensemble.json;
# minilm-ft1-users-s2): the MiniLM member fine-tuned (`--init`, seed 2, one actor, 1,000 steps, its best dev
# step 800) on USER_MEMBER_QUESTIONS (examples/fit rounds one, three to five, seven and eight; 2,472 questions over
# users' kinds of tables), its best weights picked on fit round six (BENCHMARKS.md, fifty-fourth session; rounds
# seven and eight added in the fifty-sixth). WTQ's data is
# decoded by the members above, so WTQ's figures do not move.
# wtq-glove is the published model's recipe (GloVe + bi-LSTM, substring linking as MAPO), the row compared
# with the original and the answer when the encoder extra is not installed; it was stopped by a two-hour
# limit at step 19,416 (BENCHMARKS.md).
# wikisql: an ensemble of the GloVe WikiSQL model (member glove, also `--model wikisql-glove`) and a MiniLM
# member: a MAPO run with the frozen MiniLM encoder and a bi-LSTM over it on word-linked data, its programs
# explored with WikiSQL's state_every_condition (each states every condition the question names), the weight
# average (decay 0.999) from the start, two actor processes, to step 4,000 (its best dev evaluation; the run
# was stopped by hand after it, at 192 minutes; it had been killed and resumed once at step 1,400), kept in
# float16 (the bundle's 25 MB).
# wikisql-glove (the published recipe, and the WikiSQL model without nsmcli[encoder]): a MAPO run to step 5,400 (its best on dev; the weight average turned on at step 4,896), then
# fine-tuned (`--init`) for 800 steps once WikiSQL programs could answer questions whose conditions select
# no rows (code 476f046). Its first stage ran with older code (before that change, so on a smaller program
# file; one process to step 3,657, then two actor processes; stopped by time limits and resumed): the
# commands below repeat its stages with this code and the current program file, so they retrain the same
# recipe, not the same bytes. Both GloVe models were trained on substring-linked data.
DATA ?= ../shared/data
# name:seed:steps[:setting], the frozen-MiniLM runs trained from scratch
WTQ_MINILM_RUNS ?= minilm-lstm-s2:2:8000:model.encoder_lstm=true
# name:from:seed:steps, the runs that unfreeze MiniLM's top layer of a frozen run
WTQ_UNFROZEN ?= minilm-ft1-s2:minilm-lstm-s2:2:5500
# name:from:seed:steps, the runs that go on from one of those on the training split plus templated
# questions (nsm synthesize over its buffer, every template, six per table): the MiniLM members
WTQ_SYNTH ?= minilm-ft1-synthall-s2:minilm-ft1-s2:2:1500
# name:seed:steps, the GloVe members trained from scratch on the word-linked data with pairs and templates
WTQ_GLOVE_PAIRS ?= glove-pairs-s3:3:25000
WTQ_MEMBERS = $(foreach m,$(WTQ_GLOVE_PAIRS) $(WTQ_SYNTH),$(firstword $(subst :, ,$(m))))
# bundle-directory:run pairs of the copy loop, one per member: wtq.new/NAME:wtq-NAME
WTQ_MEMBER_COPIES = $(foreach m,$(WTQ_MEMBERS),wtq.new/$(m):wtq-$(m))
# the questions over users' kinds of tables the wtq chooser is fitted on (beside WTQ's)
CHOOSER_QUESTIONS = examples/fit/questions.tsv examples/fit/questions-round3.tsv
# the fit questions the reranker of users' tables is adjusted on
USER_CHOOSER_QUESTIONS = examples/fit/questions-round4.tsv examples/fit/questions-round5.tsv \
	examples/fit/questions-round6.tsv
# name:from:seed:steps, the member for users' tables, and the fit questions it trains on and picks weights on
USER_MEMBER ?= minilm-ft1-users-s2:minilm-ft1-synthall-s2:2:1000
USER_MEMBER_FIELDS = $(subst :, ,$(USER_MEMBER))
USER_MEMBER_NAME = $(word 1,$(USER_MEMBER_FIELDS))
USER_MEMBER_FROM = $(word 2,$(USER_MEMBER_FIELDS))
USER_MEMBER_QUESTIONS = $(CHOOSER_QUESTIONS) examples/fit/questions-round4.tsv examples/fit/questions-round5.tsv \
	examples/fit/questions-round7.tsv examples/fit/questions-round8.tsv
USER_MEMBER_DEV = examples/fit/questions-round6.tsv
WTQ_GLOVE_STEPS ?= 19416
WIKISQL_MINILM_STEPS ?= 4000
WIKISQL_ONE_PROCESS ?= 3657
WIKISQL_STEPS ?= 5400
WIKISQL_AVERAGE_FROM ?= 4896
WIKISQL_FINE_TUNE_STEPS ?= 800
models: install
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[glove,encoder]'
	$(NSM) preprocess wtq --data-dir $(DATA)/wtq --out data/wtq-word --linking word
	$(NSM) explore data/wtq-word --split random-split-1-train --out data/wtq-word-programs-tw.jsonl \
		--workers 2 --trigger-words
	for run in $(WTQ_MINILM_RUNS); do \
		name=$${run%%:*}; rest=$${run#*:}; seed=$${rest%%:*}; rest=$${rest#*:}; \
		steps=$${rest%%:*}; setting=$${rest#"$$steps"}; setting=$${setting#:}; \
		OMP_NUM_THREADS=1 $(NSM) train data/wtq-word --programs data/wtq-word-programs-tw.jsonl \
			--out "runs/wtq-$$name" --algo mapo --seed "$$seed" --actors 2 --steps "$$steps" \
			--set model.encoder=minilm --set eval_every=1000 $${setting:+--set "$$setting"} || exit 1; \
	done
	for run in $(WTQ_UNFROZEN); do \
		name=$${run%%:*}; rest=$${run#*:}; from=$${rest%%:*}; rest=$${rest#*:}; seed=$${rest%%:*}; \
		steps=$${rest#*:}; \
		OMP_NUM_THREADS=1 $(NSM) train data/wtq-word --programs "runs/wtq-$$from/checkpoint/buffer.jsonl" \
			--init "runs/wtq-$$from" --out "runs/wtq-$$name" --algo mapo --seed "$$seed" --actors 2 \
			--steps "$$steps" --set model.encoder_train_layers=1 --set eval_every=500 || exit 1; \
	done
	for run in $(WTQ_SYNTH); do \
		name=$${run%%:*}; rest=$${run#*:}; from=$${rest%%:*}; rest=$${rest#*:}; seed=$${rest%%:*}; \
		steps=$${rest#*:}; rm -rf "data/wtq-word-synth-$$from"; \
		$(NSM) synthesize data/wtq-word --out "data/wtq-word-synth-$$from" --per-table 6 --seed 0 \
			--programs "runs/wtq-$$from/checkpoint/buffer.jsonl" || exit 1; \
		OMP_NUM_THREADS=1 $(NSM) train "data/wtq-word-synth-$$from" --init "runs/wtq-$$from" \
			--programs "data/wtq-word-synth-$$from/random-split-1-train-synth-programs.jsonl" \
			--out "runs/wtq-$$name" --algo mapo --seed "$$seed" --actors 2 --steps "$$steps" \
			--set train_split=random-split-1-train-synth --set eval_every=500 || exit 1; \
		$(BIN)/python -c "import sys; from nsmcli.train.rundir import RunDir; \
			RunDir(sys.argv[1]).store_best_in_half_precision()" "runs/wtq-$$name" || exit 1; \
	done
	rm -rf data/fit-questions
	$(BIN)/python bench/user_folds.py $(USER_MEMBER_QUESTIONS) --dev-questions $(USER_MEMBER_DEV) \
		--out data/fit-questions
	$(NSM) preprocess tables --data-dir data/fit-questions/all --out data/fit
	$(NSM) explore data/fit --split train --out data/fit-programs.jsonl --workers 2
	OMP_NUM_THREADS=1 $(NSM) train data/fit --programs data/fit-programs.jsonl --init runs/wtq-$(USER_MEMBER_FROM) \
		--out runs/wtq-$(USER_MEMBER_NAME) --seed $(word 3,$(USER_MEMBER_FIELDS)) --actors 1 \
		--steps $(word 4,$(USER_MEMBER_FIELDS)) --set eval_every=100 --set train_split=train --set dev_split=dev
	$(BIN)/python -c "import sys; from nsmcli.train.rundir import RunDir; \
		RunDir(sys.argv[1]).store_best_in_half_precision()" runs/wtq-$(USER_MEMBER_NAME)
	rm -rf data/wtq-word-synth
	$(NSM) synthesize data/wtq-word --out data/wtq-word-synth --per-table 4 --seed 0 \
		--programs data/wtq-word-programs-tw.jsonl
	for run in $(WTQ_GLOVE_PAIRS); do \
		name=$${run%%:*}; rest=$${run#*:}; seed=$${rest%%:*}; steps=$${rest#*:}; \
		OMP_NUM_THREADS=1 $(NSM) train data/wtq-word-synth \
			--programs data/wtq-word-synth/random-split-1-train-synth-programs.jsonl --out "runs/wtq-$$name" \
			--algo mapo --seed "$$seed" --actors 2 --steps "$$steps" --set train_split=random-split-1-train-synth \
			--set eval_every=1000 || exit 1; \
		$(BIN)/python -c "import sys; from nsmcli.train.rundir import RunDir; \
			RunDir(sys.argv[1]).store_best_in_half_precision()" "runs/wtq-$$name" || exit 1; \
	done
	$(NSM) preprocess wtq --data-dir $(DATA)/wtq --out data/wtq --linking substring
	$(NSM) explore data/wtq --split random-split-1-train --out data/wtq-programs-tw.jsonl --workers 2 \
		--trigger-words
	OMP_NUM_THREADS=1 $(NSM) train data/wtq --programs data/wtq-programs-tw.jsonl --out runs/wtq-mapo-s1 \
		--algo mapo --seed 1 --actors 2 --steps $(WTQ_GLOVE_STEPS) --set eval_every=1000
	$(BIN)/python -c "from nsmcli.train.rundir import RunDir; RunDir('runs/wtq-mapo-s1').store_best_in_half_precision()"
	$(NSM) preprocess wikisql --data-dir $(DATA)/wikisql --out data/wikisql --linking substring
	$(NSM) explore data/wikisql --split train --out data/wikisql-programs.jsonl --workers 2
	OMP_NUM_THREADS=1 $(NSM) train data/wikisql --programs data/wikisql-programs.jsonl \
		--out runs/wikisql-mapo-s1 --seed 1 --steps $(WIKISQL_ONE_PROCESS) --set eval_sample=first
	OMP_NUM_THREADS=1 $(NSM) train data/wikisql --out runs/wikisql-mapo-s1 --resume --actors 2 \
		--steps $(WIKISQL_AVERAGE_FROM)
	OMP_NUM_THREADS=1 $(NSM) train data/wikisql --out runs/wikisql-mapo-s1 --resume --actors 2 \
		--steps $(WIKISQL_STEPS) --set average_decay=0.9995
	OMP_NUM_THREADS=1 $(NSM) train data/wikisql --programs data/wikisql-programs.jsonl \
		--out runs/wikisql-empty-s1 --init runs/wikisql-mapo-s1 --algo mapo --seed 1 --actors 2 \
		--steps $(WIKISQL_FINE_TUNE_STEPS) --set average_decay=0.9995
	$(NSM) preprocess wikisql --data-dir $(DATA)/wikisql --out data/wikisql-word --linking word
	$(NSM) explore data/wikisql-word --split train --out data/wikisql-word-programs.jsonl --workers 2
	OMP_NUM_THREADS=1 $(NSM) train data/wikisql-word --programs data/wikisql-word-programs.jsonl \
		--out runs/wikisql-minilm-every-s1 --algo mapo --seed 1 --actors 2 --steps $(WIKISQL_MINILM_STEPS) \
		--set model.encoder=minilm --set model.encoder_lstm=true --set eval_every=500 --set average_decay=0.999
	$(BIN)/python -c "import sys; from nsmcli.train.rundir import RunDir; \
		RunDir(sys.argv[1]).store_best_in_half_precision()" runs/wikisql-minilm-every-s1
	rm -rf examples/models/wtq.new examples/models/wikisql.new
	mkdir -p examples/models/wtq.new examples/models/wikisql.new
	$(BIN)/python -c "import json, sys; print(json.dumps({'format': 'nsm-ensemble', \
		'members': sys.argv[1:]}))" $(WTQ_MEMBERS) \
		> examples/models/wtq.new/ensemble.json
	echo '{"format": "nsm-ensemble", "members": ["glove", "minilm-every-s1"]}' \
		> examples/models/wikisql.new/ensemble.json
	for pair in $(WTQ_MEMBER_COPIES) wtq.new/$(USER_MEMBER_NAME):wtq-$(USER_MEMBER_NAME) wtq.new/glove:wtq-mapo-s1 wikisql.new/glove:wikisql-empty-s1 \
		wikisql.new/minilm-every-s1:wikisql-minilm-every-s1; do \
		m=$${pair%%:*}; r=runs/$${pair#*:}; \
		rm -rf examples/models/$$m && mkdir -p examples/models/$$m/best && \
		cp $$r/config.json $$r/vocab.json examples/models/$$m/ && \
		cp $$r/best/model.pt $$r/best/info.json examples/models/$$m/best/ || exit 1; \
	done
	rm -rf examples/models/wtq && mv examples/models/wtq.new examples/models/wtq
	rm -rf examples/models/wikisql && mv examples/models/wikisql.new examples/models/wikisql
	rm -rf data/wtq-chooser data/wtq-chooser-beams.pkl data/wtq-chooser-scores.pkl
	$(BIN)/python bench/rerank_user_questions.py --model examples/models/wtq \
		$(CHOOSER_QUESTIONS:%=--questions %) --cache data/wtq-chooser-beams.pkl --weights 3 --variants full \
		--workers 2
	$(BIN)/python bench/matcher_fit.py --cache data/wtq-chooser-beams.pkl $(CHOOSER_QUESTIONS:%=--questions %) \
		--scores data/wtq-chooser-scores.pkl --variants full --out data/wtq-chooser
	cp data/wtq-chooser/full/reranker.json data/wtq-chooser/full/matcher.pt data/wtq-chooser/full/matcher.json \
		examples/models/wtq/
	# the reranker of users' tables (reranker-user.json): the chooser above adjusted on USER_CHOOSER_QUESTIONS,
	# decoded as nsm parse decodes a user's file (BENCHMARKS.md, fiftieth session, P)
	$(NSM) rerank examples/models/wtq $(USER_CHOOSER_QUESTIONS:%=--questions %) --workers 2 \
		--out examples/models/wtq/reranker-user.json
	# only now the member for users' tables joins (in place of the member it started from): both choosers above
	# were fitted on beams of the fit questions, which that member trained on
	$(BIN)/python -c "import json, sys; path, name, replaced = sys.argv[1:]; record = json.load(open(path)); \
		record['user_members'] = [name if m == replaced else m for m in record['members']]; \
		open(path, 'w').write(json.dumps(record) + '\n')" examples/models/wtq/ensemble.json \
		$(USER_MEMBER_NAME) $(USER_MEMBER_FROM)
	$(NSM) eval examples/models/wtq --data data/wtq-word --split random-split-1-dev --beam 5
	$(NSM) eval wtq-glove --data data/wtq-word --split random-split-1-dev --beam 5
	$(NSM) eval examples/models/wikisql --data data/wikisql-word --split dev --beam 5
	$(NSM) eval wikisql-glove --data data/wikisql --split dev --beam 5

bench: install
	$(BIN)/python bench/interpreter_speed.py
	$(BIN)/python bench/preprocess_time.py
	$(BIN)/python bench/annotation_agreement.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache *.egg-info
