from django import forms

from .models import Club


class ClubForm(forms.Form):
    name = forms.CharField(max_length=80)
    location = forms.CharField(max_length=80, required=False)
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}), required=False, max_length=2000
    )
    admission = forms.ChoiceField(
        choices=Club.Admission.choices, widget=forms.RadioSelect, initial=Club.Admission.OPEN
    )


class TransferForm(forms.Form):
    username = forms.CharField(max_length=30, label="New owner's username")
