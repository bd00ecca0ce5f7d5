import html
import re


def text(response):
    """The page as a person reads it: HTML entities decoded, whitespace collapsed."""
    return re.sub(r"\s+", " ", html.unescape(response.content.decode()))


def link_in(message, path_prefix):
    """The first link in an e-mail whose path starts with path_prefix."""
    match = re.search(r"https?://[^/\s]+(" + re.escape(path_prefix) + r"\S*)", message.body)
    assert match, f"no {path_prefix} link in: {message.body}"
    return match.group(1)
