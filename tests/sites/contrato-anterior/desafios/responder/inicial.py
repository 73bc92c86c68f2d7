# Desafío: responder. Ya está cargado mundo.py (texto, ModeloGuionizado).


def responder(modelo, pregunta):
    """Llama al modelo con [("usuario", pregunta)] y devuelve el texto de su respuesta."""
    return None
