"""A cross-encoder-shaped model folder the tests can build offline: no PyPI wheel carries a trained
cross-encoder (ingest/search/rerank.py), so the reranker's loading, pairing, batching and
reordering run on a real ONNX network whose rule is known.

The network takes what a BERT cross-encoder takes (input_ids, attention_mask, token_type_ids of
`[CLS] query [SEP] text [SEP]`) and answers one logit per pair: how many of the query's
WordPiece tokens occur in the text (the query's closing [SEP] always does, its [CLS] never). So a
text that holds every word of the question outscores one that repeats a rare word of it, which
BM25 may put first. The tokenizer is the default embedder's (BERT's uncased WordPiece, the
vocabulary of ms-marco-MiniLM-L-6-v2 too).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ingest.embedders.minilm import TOKENIZER

OPSET = 17


def build(folder: Path) -> Path:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    def ints(name: str, values: list[int]):
        return numpy_helper.from_array(np.array(values, np.int64), name)

    nodes = [
        helper.make_node("Cast", ["attention_mask"], ["mask"], to=TensorProto.FLOAT),
        helper.make_node("Cast", ["token_type_ids"], ["second"], to=TensorProto.FLOAT),
        helper.make_node("Sub", ["one", "second"], ["first"]),
        helper.make_node("Mul", ["mask", "first"], ["in_query"]),  # [B, T]
        helper.make_node("Mul", ["mask", "second"], ["in_text"]),  # [B, T]
        helper.make_node("Unsqueeze", ["input_ids", "axis2"], ["rows"]),  # [B, T, 1]
        helper.make_node("Unsqueeze", ["input_ids", "axis1"], ["cols"]),  # [B, 1, T]
        helper.make_node("Equal", ["rows", "cols"], ["same_bool"]),
        helper.make_node("Cast", ["same_bool"], ["same"], to=TensorProto.FLOAT),  # [B, T, T]
        helper.make_node("Unsqueeze", ["in_text", "axis1"], ["text_cols"]),
        helper.make_node("Mul", ["same", "text_cols"], ["same_in_text"]),
        helper.make_node("ReduceMax", ["same_in_text"], ["found"], axes=[2], keepdims=0),  # [B, T]
        helper.make_node("Mul", ["found", "in_query"], ["query_found"]),
        helper.make_node("ReduceSum", ["query_found", "axis1"], ["logits"], keepdims=1),  # [B, 1]
    ]
    inputs = [
        helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])
        for name in ("input_ids", "attention_mask", "token_type_ids")
    ]
    graph = helper.make_graph(
        nodes,
        "query_words_in_text",
        inputs,
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 1])],
        initializer=[numpy_helper.from_array(np.array(1.0, np.float32), "one"), ints("axis1", [1]), ints("axis2", [2])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    onnx.checker.check_model(model)
    folder.mkdir(parents=True, exist_ok=True)
    onnx.save(model, folder / "model.onnx")
    shutil.copyfile(TOKENIZER, folder / "tokenizer.json")
    return folder
