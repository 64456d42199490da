"""The hall answers: the lecturer's room (code, QR code, questions, download) and a student's phone (the
question, the answer, the reveal). Drawn by posviz.ui.hall over posviz.hall's rules and store."""
from posviz.ui import hall

hall.room_page()
