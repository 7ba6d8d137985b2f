"""Evaluation: retrieval recall and answer quality per method, the judge, paired comparisons."""
