"""From a method's context to the answer a caller gets: the answer call, grounding, the check,
streaming, where its sources lie, the Browser evidence, and conversations."""
