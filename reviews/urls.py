from django.urls import path

from reviews import views

urlpatterns = [
    path("matches/<id:match_id>/analysis/", views.match_analysis_page, name="match-analysis"),
    path("analyses/", views.library_page, name="analyses"),
    path("analyses/<id:analysis_id>/", views.analysis_page, name="analysis"),
]
