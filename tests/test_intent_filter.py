"""The intent filter's choice of the candidate APIs (the real classifier is tested in tests/test_intents*)."""

from autodw.agent.intent_filter import ClassifierIntentFilter, apis_named
from autodw.apis import registry

STEP = 'Replace the whole text of one paragraph: paragraph p30; text "Case 3: List Paragraph style".'


class ReadsQuotes:
    """The classifier's readings of the step with and without its quoted text (dwh-305#7 of hand dev-nineteenth)."""

    def __init__(self):
        self.texts: list[str] = []

    def predict(self, text: str, k: int = 3):
        self.texts.append(text)
        if "List Paragraph" in text:
            return [("format_style_editing", 0.977), ("content_modification", 0.023), ("image_operation", 0.0002)]
        return [("content_modification", 0.998), ("format_style_editing", 0.0009), ("structure_update", 0.0002)]


def test_a_dropped_intent_the_step_without_its_dictated_text_reads_is_kept():
    classifier = ReadsQuotes()
    offered = ClassifierIntentFilter(classifier, registry(), 0.05, apis_named).candidates(STEP)
    assert "set_paragraph_text" in offered.apis and "apply_style" in offered.apis
    assert "insert_image" not in offered.apis  # the unlikely intent stays dropped
    assert offered.intents[0] == ("format_style_editing", 0.977)  # the classifier's reading is what is reported


def test_with_no_floor_the_step_is_read_once_as_it_is():
    classifier = ReadsQuotes()
    offered = ClassifierIntentFilter(classifier, registry(), 0.0, apis_named).candidates(STEP)
    assert classifier.texts == [STEP] and "insert_image" in offered.apis


class ReadsTheDictatedWord:
    """The classifier on insert_text's description dictating "image" (dwh-320#6 of hand dev-twenty-first): content
    creation, insert_text's intent, fourth."""

    def predict(self, text: str, k: int = 3):
        return [("format_style_editing", 0.484), ("content_modification", 0.379), ("image_operation", 0.094)][:k]


def test_an_api_the_step_names_by_its_own_name_is_offered_outside_the_top_intents():
    step = 'Insert text into an existing paragraph at a character offset: paragraph p15; text "image".'
    offered = ClassifierIntentFilter(ReadsTheDictatedWord(), registry(), 0.0, apis_named).candidates(step).apis
    assert "insert_text" in offered
    assert "insert_paragraph" not in offered and "insert_table" not in offered  # content creation's others: not
