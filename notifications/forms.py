from django import forms

from notifications.models import Kind


class EmailChoiceForm(forms.Form):
    enabled = forms.BooleanField(
        required=False, label="Send me e-mail", help_text="Off: no e-mail at all."
    )
    kinds = forms.MultipleChoiceField(
        required=False,
        choices=Kind.choices,
        widget=forms.CheckboxSelectMultiple,
        label="E-mail me about",
        help_text="Only when still unread on the site a minute later.",
    )
