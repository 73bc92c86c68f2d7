# La solución de referencia de «responder».


def responder(modelo, pregunta):
    respuesta = modelo([("usuario", pregunta)])
    return " ".join(b["text"] for b in respuesta if b["type"] == "text")
