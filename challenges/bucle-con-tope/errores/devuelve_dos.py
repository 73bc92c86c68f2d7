# Error: devuelve (motivo, texto), sin M.
# Cláusula: fin
# Cláusula: al-agotar-el-tope
# Falla: la conversación de la lección
# Mensaje: bucle debe devolver una tupla de tres, (motivo, texto, M), y devolvió una de 2


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None)
