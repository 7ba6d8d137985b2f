"""The prompt-token count the run's own model would report, for estimates and budget checks."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from langchain_core.language_models import BaseChatModel, BaseLanguageModel
from langchain_core.messages import BaseMessage

from graphrag_neo4j.llm.tokens.counting import count_tokens

PromptCounter = Callable[[Sequence[BaseMessage]], int]
# Role and separator tokens a chat API adds per message (OpenAI's documented figure).
PER_MESSAGE_OVERHEAD = 4
_BASE_COUNTER = BaseLanguageModel.get_num_tokens_from_messages


def _tiktoken_count(messages: Sequence[BaseMessage]) -> int:
    return sum(count_tokens(m.text) + PER_MESSAGE_OVERHEAD for m in messages) + 3


def prompt_token_counter(model: BaseChatModel) -> PromptCounter:
    """The model's own counter when its class has one (ChatOpenAI: tiktoken for its model;
    llama.cpp: the GGUF tokenizer and chat template; FakeChatModel: words), else cl100k.

    LangChain's base class counter is never used: it downloads a GPT-2 tokenizer.
    """
    own = type(model).get_num_tokens_from_messages
    if own is _BASE_COUNTER:
        return _tiktoken_count

    def count(messages: Sequence[BaseMessage]) -> int:
        try:
            return int(own(model, list(messages)))
        except Exception:  # an encoding that needs a download on an offline machine
            return _tiktoken_count(messages)

    return count
