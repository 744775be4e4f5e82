"""BERT's uncased WordPiece tokenizer, read from a tokenizer.json vocabulary (what the model was trained with)."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

# Words longer than this become [UNK] (the model's tokenizer.json: max_input_chars_per_word).
MAX_WORD_CHARS = 100


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (
        0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or 0x2A700 <= cp <= 0x2B73F
        or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F
    )  # fmt: skip


def normalize(text: str) -> str:
    """BertNormalizer: control characters dropped, whitespace as spaces, CJK characters spaced, lower case,
    accents stripped."""
    out: list[str] = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD:
            continue
        cat = unicodedata.category(ch)
        if ch in "\t\n\r" or cat == "Zs":
            out.append(" ")
        elif cat.startswith("C"):
            continue
        elif _is_cjk(cp):
            out.append(f" {ch} ")
        else:
            out.append(ch)
    lowered = "".join(out).lower()
    return "".join(c for c in unicodedata.normalize("NFD", lowered) if unicodedata.category(c) != "Mn")


def pre_split(text: str) -> list[str]:
    """BertPreTokenizer: split on whitespace, every punctuation character a word of its own."""
    words: list[str] = []
    for chunk in text.split():
        current = ""
        for ch in chunk:
            if _is_punctuation(ch):
                if current:
                    words.append(current)
                    current = ""
                words.append(ch)
            else:
                current += ch
        if current:
            words.append(current)
    return words


class WordPiece:
    """Greedy longest-match-first WordPiece over a vocabulary (token -> id)."""

    def __init__(self, vocab: Mapping[str, int]) -> None:
        self.vocab = dict(vocab)
        self.unk = self.vocab["[UNK]"]
        self.cls = self.vocab["[CLS]"]
        self.sep = self.vocab["[SEP]"]

    def word_ids(self, word: str) -> list[int]:
        if len(word) > MAX_WORD_CHARS:
            return [self.unk]
        ids: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.vocab.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return [self.unk]
            ids.append(found)
            start = end
        return ids

    def encode(self, text: str, *, max_length: int) -> list[int]:
        """[CLS] + the text's word pieces (cut to fit) + [SEP]."""
        ids: list[int] = []
        for word in pre_split(normalize(text)):
            ids.extend(self.word_ids(word))
            if len(ids) >= max_length - 2:
                break
        return [self.cls, *ids[: max_length - 2], self.sep]
