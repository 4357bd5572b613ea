from django.apps import AppConfig


class DisputesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "disputes"
