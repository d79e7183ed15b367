"""`ProgramModel`: the MAPO policy. Scores, samples and beam-searches programs of any bound environment.

The model sees an environment only through `nsmcli.protocols.Environment` (the valid tokens, a step, and
which memory slot a step wrote), plus the plain-data `Context` its world's adapter built for the problem. All work is batched: the encoder over the distinct questions of a call, the
decoder over every live program, hypothesis or sample at once.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import torch
from torch import nn

from nsmcli.model.config import ModelConfig
from nsmcli.model.context import Context
from nsmcli.model.decoder import MemoryDecoder, MemoryKeys, StackedDecoders
from nsmcli.model.embeddings import WordEmbedding, load_glove_rows
from nsmcli.model.encoder import Encoded, QuestionEncoder
from nsmcli.model.pretrained import (
    PACKAGE,
    MiniLMText,
    PretrainedInputs,
    check_recorded,
    frozen_text,
    load_encodings,
    locate_minilm,
    save_encodings,
    text_key,
)
from nsmcli.model.vocab import PAD_ID, Vocab
from nsmcli.protocols import Environment, ProgramState
from nsmcli.worlds import get_world

Scored = tuple[tuple[int, ...], float]
Exclude = Callable[[int, tuple[int, ...]], Collection[int]]

# Per environment: program -> (valid tokens at each step, memory slot written at each step or -1). Replaying
# a stored program (every training step) then costs one dict look-up instead of an interpreter walk.
_WALKS: weakref.WeakKeyDictionary[Environment, dict[tuple[int, ...], tuple[list, list]]] = (
    weakref.WeakKeyDictionary()
)


@dataclass
class _Batch:
    """Per-question tensors of one call."""

    encoded: Encoded
    att_keys: torch.Tensor
    att_values: torch.Tensor
    memory: torch.Tensor  # [Q, A, H]
    features: torch.Tensor  # [Q, A]


class ProgramModel(nn.Module):
    """Question encoder + memory pointer decoder over the valid tokens of an environment (MAPO §4)."""

    def __init__(self, config: ModelConfig, vocab: Vocab, glove: torch.Tensor | None = None):
        super().__init__()
        self.config = config
        self.vocab = vocab
        h = config.hidden_size
        self.pretrained: PretrainedInputs | None = None
        self._text: MiniLMText | None = None  # frozen and shared: a plain attribute, outside the state dict
        if config.encoder == "minilm":
            files = locate_minilm()
            check_recorded(files, config.encoder_package, config.encoder_version, config.encoder_sha256)
            config.encoder_package, config.encoder_version = PACKAGE, files.version
            config.encoder_sha256 = files.sha256()
            self._text = frozen_text(files, config.encoder_train_layers)
            self.pretrained = PretrainedInputs(
                self._text,
                h,
                config.n_token_features,
                config.n_layers,
                config.dropout,
                config.encoder_lstm,
                words=h if config.encoder_words else 0,
            )
            self.embed = self._word_embedding(config, vocab, glove) if config.encoder_words else None
            self.encoder = None
        else:
            self.embed = self._word_embedding(config, vocab, glove)
            self.encoder = QuestionEncoder(h + config.n_token_features, h, config.n_layers, config.dropout)
        self.memory_keys = MemoryKeys(
            h, config.n_builtins, config.n_constant_types, config.init_std, config.span_mask_bug
        )
        self.decoder = MemoryDecoder(h, config.n_layers, config.dropout, config.init_std, config.attention)
        # only when asked for, so that the state dicts of runs without a critic keep their keys
        self.value_head = nn.Linear(h, 1) if config.value_head else None

    @staticmethod
    def _word_embedding(config: ModelConfig, vocab: Vocab, glove: torch.Tensor | None) -> WordEmbedding:
        return WordEmbedding(
            len(vocab),
            config.hidden_size,
            config.embedding_size,
            config.use_glove,
            config.init_std,
            glove,
            config.normalize_glove,
        )

    @classmethod
    def build(cls, config: ModelConfig, vocab: Vocab) -> ProgramModel:
        """A fresh model; with `use_glove`, the vocabulary's GloVe rows are loaded when the package is there
        (check `model.embed.n_pretrained`: 0 means every word embedding is learned)."""
        embeds_words = config.encoder == "lstm" or config.encoder_words
        glove = load_glove_rows(vocab) if config.use_glove and embeds_words else None
        if glove is not None and glove.shape[1] != config.embedding_size:
            raise ValueError(
                f"GloVe vectors have {glove.shape[1]} dims; config.embedding_size is {config.embedding_size}"
            )
        return cls(config, vocab, glove)

    def pretrained_parameters(self) -> list[nn.Parameter]:
        """The fine-tuned layers of the pretrained encoder (`encoder_train_layers`; none when frozen): the
        trainer gives them their own learning rate."""
        return list(self.pretrained.top.parameters()) if self.pretrained is not None else []

    @property
    def device(self) -> torch.device:
        return self.decoder.go.device

    def context(self, example: Any, env: Environment) -> Context:
        """The model's view of one problem (plain CPU data; cache it per example), from the adapter its
        environment's world registers (`nsmcli.worlds.World.context`)."""
        context = get_world(env.world).context(example, env, self.vocab, self.config)
        if self._text is None:
            return context
        return replace(context, pretrained=self._text.encode(list(context.words), context.columns))

    @property
    def batches_contexts(self) -> bool:
        """Contexts built at once save work only with the pretrained encoder (batched, stored outputs)."""
        return self._text is not None

    def contexts(
        self,
        examples: Sequence[Any],
        envs: Sequence[Environment],
        store: Path | None = None,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> list[Context]:
        """`context` of many problems at once. With the pretrained encoder their questions are encoded in
        batches, and the directory `store` keeps the encodings for later runs on the same data and for
        actor processes (`load_encodings`): what it holds is read, what it lacks is computed and the file
        written again. `on_progress(done, total)` counts questions encoded."""
        world_contexts = [
            get_world(env.world).context(example, env, self.vocab, self.config)
            for example, env in zip(examples, envs, strict=True)
        ]
        text = self._text
        if text is None:
            return world_contexts
        items = [(list(c.words), c.columns) for c in world_contexts]
        path = None if store is None else store / text.store_name
        missing = list({text_key(*it): it for it in items if not text.knows(*it)}.values())
        stored: list = []
        if missing and path is not None and path.is_file():
            stored = load_encodings(path, text)
            missing = [it for it in missing if not text.knows(*it)]
        if missing:
            done = 0

            def advance(n: int) -> None:
                nonlocal done
                done += n
                if on_progress is not None:
                    on_progress(done, len(missing))

            text.remember(missing, text.encode_many(missing, on_progress=advance))
            if path is not None:
                kept = list({text_key(*it): it for it in [*stored, *items]}.values())
                try:
                    save_encodings(path, text, kept)
                except OSError:
                    pass  # only a cache: a read-only data directory costs this time again next run
        return [replace(c, pretrained=text.encode(*it)) for c, it in zip(world_contexts, items, strict=True)]

    def load_encodings(self, store: Path) -> None:
        """Read what `contexts` stored in `store` for this model's encoder, if anything (actor processes)."""
        if self._text is not None and (store / self._text.store_name).is_file():
            load_encodings(store / self._text.store_name, self._text)

    def value(self, contexts: Sequence[Context]) -> torch.Tensor:
        """The value head's estimate [len(contexts)] of each problem's expected reward (actor-critic)."""
        if self.value_head is None:
            raise ValueError("this model has no value head (model.value_head=false)")
        unique, q_of = _dedupe(contexts)
        batch = self._encode(unique, self.training)
        top = batch.encoded.state[-1][0]  # [Q, H]: the top layer's final state
        return self.value_head(top).squeeze(-1)[torch.tensor(q_of, device=top.device)]

    # ----- shared pieces ---------------------------------------------------------------------------------

    def _encode(self, contexts: Sequence[Context], drop: bool) -> _Batch:
        device = self.device
        n_feat = self.config.n_token_features
        lengths = [max(1, len(c.token_ids)) for c in contexts]
        width = max(lengths)
        ids = torch.full((len(contexts), width), PAD_ID, dtype=torch.long)
        feats = torch.zeros(len(contexts), width, n_feat)
        for q, c in enumerate(contexts):
            if c.token_ids:
                ids[q, : len(c.token_ids)] = torch.tensor(c.token_ids)
                f = torch.tensor(c.token_features, dtype=torch.float32).reshape(len(c.token_ids), -1)
                if f.shape[1] != n_feat:
                    raise ValueError(f"context has {f.shape[1]} token features; the model expects {n_feat}")
                feats[q, : len(c.token_ids)] = f
        if self.pretrained is not None:
            if any(c.pretrained is None for c in contexts):
                raise ValueError(
                    "a context without the pretrained encoder's vectors (built by another model?)"
                )
            words = self.embed(ids.to(device)) if self.embed is not None else None
            outputs, columns, state = self.pretrained([c.pretrained for c in contexts], feats, drop, words)
            mask = torch.arange(width, device=device)[None, :] < torch.tensor(lengths, device=device)[:, None]
            encoded = Encoded(outputs, mask, state)
            memory, features = self.memory_keys(contexts, encoded, None, columns)
        else:
            words = self.embed(ids.to(device))
            inputs = torch.cat([words, feats.to(device=device, dtype=words.dtype)], dim=-1)
            encoded = self.encoder(inputs, torch.tensor(lengths), drop)
            memory, features = self.memory_keys(contexts, encoded, self.embed)
        keys, values = self.decoder.attention_inputs(encoded)
        return _Batch(encoded, keys, values, memory, features)

    def _valid_mask(self, valids: Sequence[Collection[int]], n_actions: int) -> torch.Tensor:
        rows = [i for i, v in enumerate(valids) for _ in v]
        cols = [t for v in valids for t in v]
        mask = torch.zeros(len(valids), n_actions, dtype=torch.bool)
        mask[rows, cols] = True
        return mask.to(self.device)

    def _advance(self, rows: _Rows, writes: list[int]) -> torch.Tensor:
        """One decoding step (no grad) for every row; a row whose previous token created a result
        (`writes[r]` >= 0) stores this step's output as that result's key. Returns the outputs [N, H]."""
        out, rows.state = self.decoder.step(
            rows.x, rows.state, rows.att_keys, rows.att_values, rows.att_mask, drop=False
        )
        written = [r for r, s in enumerate(writes) if s >= 0]
        if written:
            idx = torch.tensor(written, device=self.device)
            slots = torch.tensor([writes[r] for r in written], device=self.device)
            rows.memory.index_put_((idx, slots), out[idx])  # decoding only (no grad); rows own their memory
        return out

    # ----- scoring (teacher forcing) ---------------------------------------------------------------------

    def log_probs(
        self, contexts: Sequence[Context], envs: Sequence[Environment], programs: Sequence[Sequence[int]]
    ) -> torch.Tensor:
        """Differentiable log-probability [len(programs)] of each complete program (ending with `<END>`).

        Program i belongs to contexts[i] / envs[i]; repeated context objects are encoded once. Every step's
        softmax covers only the tokens `env.valid_tokens` allows at that prefix. A program that is not valid
        in its environment raises ValueError. Dropout applies when the model is in training mode.
        """
        if len(programs) != len(contexts):
            raise ValueError(f"{len(programs)} programs for {len(contexts)} contexts")
        if not programs:
            return torch.zeros(0, device=self.device)
        _check_pairs(contexts, envs)
        unique, q_of = _dedupe(contexts)
        walks = [_walk(env, tuple(p)) for env, p in zip(envs, programs, strict=True)]
        device, drop = self.device, self.training
        batch = self._encode(unique, drop)
        n_q, n_actions, hidden = batch.memory.shape
        n, steps = len(programs), max(len(p) for p in programs)
        n_slots = max(c.n_computed for c in unique)
        # Plain data first: targets, where computed results start, which step writes which result slot.
        first = [unique[q].n_builtins + len(unique[q].constants) for q in q_of]
        targets = torch.zeros(n, steps, dtype=torch.long)
        live = torch.zeros(n, steps, dtype=torch.bool)
        writes: list[list[tuple[int, int]]] = [[] for _ in range(steps)]  # per step: (row, result slot)
        for i, (p, (_, w)) in enumerate(zip(programs, walks, strict=True)):
            targets[i, : len(p)] = torch.tensor(list(p))
            live[i, : len(p)] = True
            for t, slot in enumerate(w):
                if slot >= 0:
                    writes[t].append((i, slot - first[i]))
        first_t = torch.tensor(first).unsqueeze(1)
        result_in = (targets >= first_t) & live  # the token reads a computed result
        result_k = (targets - first_t).clamp(0, max(n_slots, 1) - 1)
        valid_rows, valid_cols = [], []
        for i, (valids, _) in enumerate(walks):
            for t, v in enumerate(valids):
                valid_rows.extend([i * steps + t] * len(v))
                valid_cols.extend(v)
        valid = torch.zeros(n * steps, n_actions, dtype=torch.bool)
        valid[valid_rows, valid_cols] = True
        valid[:, 0] |= ~live.reshape(-1)  # padding steps: a harmless single choice
        targets, live, result_in, result_k = (x.to(device) for x in (targets, live, result_in, result_k))
        valid = valid.to(device).view(n, steps, n_actions)

        q = torch.tensor(q_of, device=device)
        rows = torch.arange(n, device=device)
        att_keys, att_values, att_mask = batch.att_keys[q], batch.att_values[q], batch.encoded.mask[q]
        # Inputs from built-ins and constants are known in advance: one gather for all steps.
        flat_memory = batch.memory.reshape(n_q * n_actions, hidden)
        fixed_inputs = flat_memory[(q.unsqueeze(1) * n_actions + targets).reshape(-1)].view(n, steps, hidden)
        results = flat_memory.new_zeros(n, n_slots, hidden)  # keys of computed results
        state = [(h[q], c[q]) for h, c in batch.encoded.state]
        x = self.decoder.go.unsqueeze(0).expand(n, -1)
        tops = []
        for t in range(steps):
            top, state = self.decoder.cell(x, state, drop)
            tops.append(top)
            if writes[t]:  # the previous token created a result: its key is this step's output
                w_rows = torch.tensor([r for r, _ in writes[t]], device=device)
                w_slots = torch.tensor([k for _, k in writes[t]], device=device)
                out = self.decoder.attend(top[w_rows], att_keys[w_rows], att_values[w_rows], att_mask[w_rows])
                results = results.index_put((w_rows, w_slots), out)
            if n_slots:
                x = torch.where(result_in[:, t : t + 1], results[rows, result_k[:, t]], fixed_inputs[:, t])
            else:  # a world that writes no memory (Karel)
                x = fixed_inputs[:, t]
        # Scores of all steps at once: the keys of built-ins and constants never change, and a result's key is
        # only valid (unmasked) after it was written.
        out = self._attend_all(torch.stack(tops, dim=1), att_keys, att_values, att_mask)  # [N, T, H]
        logits = torch.bmm(out, batch.memory[q].transpose(1, 2))
        logits = logits + self.decoder.feature_weight * batch.features[q].unsqueeze(1)
        if n_slots:
            result_pos = torch.tensor(first, device=device).unsqueeze(1) + torch.arange(
                n_slots, device=device
            )
            logits = logits.scatter(
                2, result_pos.unsqueeze(1).expand(n, steps, n_slots), torch.bmm(out, results.transpose(1, 2))
            )
        logp = torch.log_softmax(logits.masked_fill(~valid, float("-inf")), dim=-1)
        logp = logp.gather(2, targets.unsqueeze(-1)).squeeze(-1)
        return torch.where(live, logp, torch.zeros_like(logp)).sum(dim=1)

    def _attend_all(
        self, tops: torch.Tensor, att_keys: torch.Tensor, att_values: torch.Tensor, att_mask: torch.Tensor
    ) -> torch.Tensor:
        """Attention for every step of every row, in time chunks that bound the [N, T, L, H] intermediate."""
        n, steps, hidden = tops.shape
        if self.decoder.dot:  # no [N, T, L, H] intermediate to bound
            return self.decoder.attend(tops, att_keys, att_values, att_mask)
        chunk = max(1, (1 << 23) // max(1, n * att_keys.shape[1] * hidden))
        parts = [
            self.decoder.attend(tops[:, s : s + chunk], att_keys, att_values, att_mask)
            for s in range(0, steps, chunk)
        ]
        return torch.cat(parts, dim=1) if len(parts) > 1 else parts[0]

    # ----- sampling --------------------------------------------------------------------------------------

    # Decoding runs in inference mode (no autograd, no version counters on its tensors), which costs less per
    # op than no_grad; only Python lists leave these methods, so no inference tensor reaches training.
    @torch.inference_mode()
    def sample(
        self,
        contexts: Sequence[Context],
        envs: Sequence[Environment],
        n: int,
        generator: torch.Generator,
        temperature: float = 1.0,
        exclude: Exclude | None = None,
        max_steps: int = 30,
    ) -> list[list[Scored]]:
        """`n` samples per question, all decoded together; per question a list of (tokens, logprob).

        The logprob is the model's (temperature 1, no exclusions), the probability a trainer needs. Tokens
        that `exclude(i, prefix)` returns are hidden from the draw for question i; a sample with nothing left
        to draw, a dead end or no `<END>` within `max_steps` is abandoned. Draws use `generator` on the CPU,
        so a seeded generator gives the same samples.
        """
        if temperature <= 0:
            raise ValueError("temperature must be positive")
        _check_pairs(contexts, envs)
        q_of = [q for q in range(len(contexts)) for _ in range(n)]
        batch = self._encode(list(contexts), drop=False)
        rows = _Rows.of(batch, q_of, self.device, self.decoder.go)
        n_actions = batch.memory.shape[1]
        hyps = [_Hyp(q, envs[q].initial_state()) for q in q_of]  # aligned with rows
        results: list[list[tuple[int, Scored]]] = [[] for _ in contexts]
        sample_ids = list(range(len(q_of)))
        for _ in range(max_steps):
            keep, valids, allowed = [], [], []
            for r, h in enumerate(hyps):
                if h.state.done:
                    continue
                v = envs[h.q].valid_tokens(h.state)
                a = v
                if exclude is not None and v:
                    hidden = exclude(h.q, h.state.tokens)
                    if hidden:
                        a = tuple(t for t in v if t not in hidden)
                if a:
                    keep.append(r)
                    valids.append(v)
                    allowed.append(a)
            if not keep:
                break
            if len(keep) != len(hyps):
                rows.select(keep, self.device)
                hyps = [hyps[r] for r in keep]
                sample_ids = [sample_ids[r] for r in keep]
            out = self._advance(rows, [h.write for h in hyps])
            logits = self.decoder.logits(out, rows.memory, rows.features, self._valid_mask(valids, n_actions))
            logp = torch.log_softmax(logits, dim=-1).cpu()
            draw = logits.cpu() / temperature
            draw = draw.masked_fill(~self._valid_mask(allowed, n_actions).cpu(), float("-inf"))
            chosen = torch.multinomial(torch.softmax(draw, dim=-1), 1, generator=generator).squeeze(1)
            for r, h in enumerate(hyps):
                tok = int(chosen[r])
                h.push(envs[h.q], tok, float(logp[r, tok]))
                if h.state.done and h.state.error is None:
                    results[h.q].append((sample_ids[r], (h.state.tokens, h.logp)))
            rows.x = rows.memory[torch.arange(len(hyps), device=self.device), chosen.to(self.device)]
        return [[s for _, s in sorted(found)] for found in results]

    # ----- beam search -----------------------------------------------------------------------------------

    def beam_search(
        self,
        contexts: Sequence[Context],
        envs: Sequence[Environment],
        beam_size: int = 5,
        max_steps: int = 30,
        keep_unused: bool = False,
    ) -> list[list[Scored]]:
        """Per question, the finished programs of the final beam (best first), as MAPO §6.1: each step keeps
        the top `beam_size` of (all continuations of live hypotheses) ∪ (programs already finished); it stops
        when a question's beam holds only finished programs. Errored programs are discarded, and so are
        finished programs that leave a computed result unused unless `keep_unused` (the original's evaluator
        kept them): training never rewards them (MAPO's extra-work penalty), and the decoder writes them
        when the argument it meant was pruned, e.g. `hop` over an empty row set, so the slot goes to the
        next candidate instead. A question whose every finished program was discarded gets the best of
        them back, so decoding answers whenever it did before."""
        return self.ensemble_beam_search([self], [contexts], envs, beam_size, max_steps, keep_unused)

    @staticmethod
    @torch.inference_mode()
    def ensemble_beam_search(
        models: Sequence[ProgramModel],
        contexts: Sequence[Sequence[Context]],
        envs: Sequence[Environment],
        beam_size: int = 5,
        max_steps: int = 30,
        keep_unused: bool = False,
    ) -> list[list[Scored]]:
        """`ProgramModel.beam_search` over an ensemble: one beam, each token scored by the mean of the members'
        probabilities (`contexts[m]` are member m's views of `envs`, which all members decode). One member is
        exactly its own beam search. Against pooling the members' separate beams, the ensemble prunes with
        what all members say at every step, and steps the environments and the beam once."""
        if len(models) != len(contexts) or not models:
            raise ValueError(f"{len(models)} models for {len(contexts)} context lists")
        for member in contexts:
            _check_pairs(member, envs)
        device = models[0].device
        batches = [m._encode(list(c), drop=False) for m, c in zip(models, contexts, strict=True)]
        n_actions = batches[0].memory.shape[1]
        if any(b.memory.shape[1] != n_actions for b in batches):
            raise ValueError("ensemble members see different action layouts (built with other limits?)")
        q_of = list(range(len(envs)))
        members = _StackedMembers.of(models, batches, q_of, device) or _EachMember(
            models, batches, q_of, device
        )
        hyps = [_Hyp(q, envs[q].initial_state()) for q in q_of]
        finished: list[list[_Hyp]] = [[] for _ in envs]
        unused: list[_Hyp | None] = [None for _ in envs]  # the best discarded one, if nothing else ends
        for _ in range(max_steps):
            keep, valids = [], []
            for r, h in enumerate(hyps):
                v = envs[h.q].valid_tokens(h.state)
                if v:
                    keep.append(r)
                    valids.append(v)
            if not keep:
                break
            if len(keep) != len(hyps):
                members.select(keep, device)
                hyps = [hyps[r] for r in keep]
            valid = models[0]._valid_mask(valids, n_actions)
            scores = members.scores([h.write for h in hyps], valid).cpu()
            by_q: dict[int, list[int]] = {}
            for r, h in enumerate(hyps):
                by_q.setdefault(h.q, []).append(r)
            parents, new_hyps, tokens = [], [], []
            for q, rs in by_q.items():
                total = scores[rs] + torch.tensor([hyps[r].logp for r in rs]).unsqueeze(1)
                flat = total.reshape(-1)
                # every candidate, best first, so that discarded ones leave no hole in the beam
                k = int(torch.isfinite(flat).sum())
                top = torch.topk(flat, k) if k else None
                candidates: list[tuple[float, int, _Hyp | None]] = [(f.logp, -1, f) for f in finished[q]]
                if top is not None:
                    for value, pos in zip(top.values.tolist(), top.indices.tolist(), strict=True):
                        candidates.append((value, pos, None))
                candidates.sort(key=lambda c: -c[0])  # stable: finished programs win ties
                kept: list[_Hyp] = []
                n_live = 0
                for _, pos, done in candidates:
                    if len(kept) + n_live >= beam_size:
                        break
                    if done is not None:
                        kept.append(done)
                        continue
                    r, tok = rs[pos // n_actions], pos % n_actions
                    child = hyps[r].fork()
                    child.push(envs[q], tok, float(scores[r, tok]))
                    if child.state.error is not None:
                        continue
                    if child.state.done:
                        if not keep_unused and envs[q].unused_work(child.state):
                            if unused[q] is None or child.logp > unused[q].logp:
                                unused[q] = child
                            continue
                        kept.append(child)
                    else:
                        new_hyps.append(child)
                        parents.append(r)
                        tokens.append(tok)
                        n_live += 1
                finished[q] = kept
            if not new_hyps:
                break
            members.select(parents, device)
            members.feed(torch.tensor(tokens, device=device))
            hyps = new_hyps
        for q, f in enumerate(finished):
            if not f and unused[q] is not None:
                f.append(unused[q])
        return [[(h.state.tokens, h.logp) for h in sorted(f, key=lambda h: -h.logp)] for f in finished]

    @torch.inference_mode()
    def greedy(
        self,
        contexts: Sequence[Context],
        envs: Sequence[Environment],
        keep_unused: bool = False,
        max_steps: int = 30,
    ) -> list[Scored]:
        """The most likely token at each step; `((), -inf)` for a question whose greedy path dead-ends."""
        found = self.beam_search(contexts, envs, 1, keep_unused=keep_unused, max_steps=max_steps)
        return [f[0] if f else ((), float("-inf")) for f in found]


@dataclass(eq=False)
class _Rows:
    """Decoder-side tensors of the rows being decoded (samples or beam hypotheses); each row owns its memory
    copy, so a computed result's key is written in place. Rows of an ensemble's members stepped as one
    (`_StackedMembers`) have a leading member axis on every tensor but `q`."""

    q: torch.Tensor
    state: list[tuple[torch.Tensor, torch.Tensor]]
    memory: torch.Tensor
    features: torch.Tensor
    att_keys: torch.Tensor
    att_values: torch.Tensor
    att_mask: torch.Tensor
    x: torch.Tensor

    @classmethod
    def of(cls, batch: _Batch, q_of: list[int], device: torch.device, go: torch.Tensor) -> _Rows:
        q = torch.tensor(q_of, device=device)
        return cls(
            q,
            [(h[q], c[q]) for h, c in batch.encoded.state],
            batch.memory[q],
            batch.features[q],
            batch.att_keys[q],
            batch.att_values[q],
            batch.encoded.mask[q],
            go.unsqueeze(0).expand(len(q_of), -1),
        )

    @classmethod
    def stacked(cls, rows: Sequence[_Rows]) -> _Rows:
        """The members' rows (of one shape) with a leading member axis [M, N, ...]."""

        def stack(name: str) -> torch.Tensor:
            return torch.stack([getattr(r, name) for r in rows])

        state = [
            (torch.stack([r.state[i][0] for r in rows]), torch.stack([r.state[i][1] for r in rows]))
            for i in range(len(rows[0].state))
        ]
        return cls(
            rows[0].q,
            state,
            stack("memory"),
            stack("features"),
            stack("att_keys"),
            stack("att_values"),
            stack("att_mask"),
            stack("x"),
        )

    def select(self, index: list[int], device: torch.device, axis: int = 0) -> None:
        """Keep only the rows `index` (in that order; repeats fork a row); `axis` 1 for stacked rows."""
        i = torch.tensor(index, device=device, dtype=torch.long)
        self.q = self.q[i]
        self.state = [(h.index_select(axis, i), c.index_select(axis, i)) for h, c in self.state]
        self.memory = self.memory.index_select(axis, i)
        self.features = self.features.index_select(axis, i)
        self.att_keys = self.att_keys.index_select(axis, i)
        self.att_values = self.att_values.index_select(axis, i)
        self.att_mask = self.att_mask.index_select(axis, i)
        self.x = self.x.index_select(axis, i)


class _EachMember:
    """An ensemble's decoding rows, one `_Rows` per member, each member stepped by its own decoder: a single
    model, or members whose decoders do not stack."""

    def __init__(self, models: Sequence[ProgramModel], batches: Sequence[_Batch], q_of: list[int], device):
        self.models = models
        self.rows = [_Rows.of(b, q_of, device, m.decoder.go) for m, b in zip(models, batches, strict=True)]

    def select(self, index: list[int], device: torch.device) -> None:
        for rows in self.rows:
            rows.select(index, device)

    def scores(self, writes: list[int], valid: torch.Tensor) -> torch.Tensor:
        """One step of every row: the members' mean probability of each action [N, A], in log space."""
        each = [
            torch.log_softmax(
                m.decoder.logits(m._advance(rows, writes), rows.memory, rows.features, valid), -1
            )
            for m, rows in zip(self.models, self.rows, strict=True)
        ]
        return each[0] if len(each) == 1 else torch.logsumexp(torch.stack(each), 0) - math.log(len(each))

    def feed(self, tokens: torch.Tensor) -> None:
        """The next step's inputs: the keys of the tokens just chosen (one per row)."""
        index = torch.arange(len(tokens), device=tokens.device)
        for rows in self.rows:
            rows.x = rows.memory[index, tokens]


class _StackedMembers:
    """An ensemble's decoding rows with a leading member axis [M, N, ...], stepped by `StackedDecoders`: one
    set of batched ops per step for all members. Used when the members' decoders and tensors have one shape
    (`of`); it gives `_EachMember`'s scores up to float rounding."""

    def __init__(self, models: Sequence[ProgramModel], rows: list[_Rows]):
        self.decoder = StackedDecoders.of([m.decoder for m in models])
        self.rows = _Rows.stacked(rows)

    @classmethod
    def of(
        cls, models: Sequence[ProgramModel], batches: Sequence[_Batch], q_of: list[int], device
    ) -> _StackedMembers | None:
        if len(models) < 2 or not StackedDecoders.fits([m.decoder for m in models]):
            return None
        if len({(b.memory.shape, b.att_keys.shape, b.att_values.shape) for b in batches}) != 1:
            return None
        return cls(
            models, [_Rows.of(b, q_of, device, m.decoder.go) for m, b in zip(models, batches, strict=True)]
        )

    def select(self, index: list[int], device: torch.device) -> None:
        self.rows.select(index, device, axis=1)

    def scores(self, writes: list[int], valid: torch.Tensor) -> torch.Tensor:
        rows = self.rows
        out, rows.state = self.decoder.step(rows.x, rows.state, rows.att_keys, rows.att_values, rows.att_mask)
        written = [r for r, s in enumerate(writes) if s >= 0]
        if written:  # as `ProgramModel._advance`: this step's output is the key of the result just created
            idx = torch.tensor(written, device=out.device)
            slots = torch.tensor([writes[r] for r in written], device=out.device)
            rows.memory[:, idx, slots] = out[:, idx]
        each = self.decoder.log_probs(out, rows.memory, rows.features, valid)
        return torch.logsumexp(each, 0) - math.log(each.shape[0])

    def feed(self, tokens: torch.Tensor) -> None:
        self.rows.x = self.rows.memory[:, torch.arange(len(tokens), device=tokens.device), tokens]


class _Hyp:
    """A program being decoded: its question, interpreter state, model logprob and pending memory write."""

    __slots__ = ("q", "state", "logp", "write")

    def __init__(self, q: int, state: ProgramState, logp: float = 0.0, write: int = -1):
        self.q, self.state, self.logp, self.write = q, state, logp, write

    def fork(self) -> _Hyp:
        return _Hyp(self.q, self.state, self.logp, self.write)

    def push(self, env: Environment, token: int, logp: float) -> None:
        before = self.state
        self.state = env.step(before, token)
        self.logp += logp
        self.write = env.written_slot(before, self.state)


def _check_pairs(contexts: Sequence[Context], envs: Sequence[Environment]) -> None:
    """A context must describe its environment's action layout, or keys would land on the wrong tokens."""
    if len(contexts) != len(envs):
        raise ValueError(f"{len(contexts)} contexts for {len(envs)} environments")
    for c, env in zip(contexts, envs, strict=True):
        if c.n_builtins != env.n_builtins or len(c.constants) != env.n_constants:
            raise ValueError(
                "context does not match its environment (built from another example or language?)"
            )


def _dedupe(contexts: Sequence[Context]) -> tuple[list[Context], list[int]]:
    """Distinct context objects (by identity) and each item's index among them."""
    seen: dict[int, int] = {}
    unique: list[Context] = []
    index = []
    for c in contexts:
        j = seen.get(id(c))
        if j is None:
            j = seen[id(c)] = len(unique)
            unique.append(c)
        index.append(j)
    return unique, index


def _walk(env: Environment, program: tuple[int, ...]) -> tuple[list, list]:
    """Valid tokens before each token of `program`, and the memory slot each step writes (-1: none)."""
    cache = _WALKS.get(env)
    if cache is None:
        cache = _WALKS[env] = {}
    hit = cache.get(program)
    if hit is not None:
        return hit
    hyp = _Hyp(0, env.initial_state())
    valids, writes = [], []
    for t, tok in enumerate(program):
        v = env.valid_tokens(hyp.state)
        if tok not in v:
            raise ValueError(f"token {env.token_name(tok)} at position {t} of {program} is not valid there")
        valids.append(v)
        writes.append(hyp.write)
        hyp.push(env, tok, 0.0)
    if not hyp.state.done or hyp.state.error is not None:
        raise ValueError(f"program {program} does not end with <END> in a finished state")
    cache[program] = (valids, writes)
    return valids, writes
