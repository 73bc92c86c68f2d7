# Error: atrapa cualquier Exception: un fallo del propio arnés se esconde como observación.
# Cláusula: lo-demas-se-propaga
# Falla: un fallo del arnés se propaga: KeyError
# Mensaje: buscar tiene un fallo de programación (lanza KeyError («'lista'»)) y ejecutar devolvió resultado h1 (error): «'lista'»
# Mensaje: convirtió un fallo del arnés en una observación que el modelo no puede arreglar


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except Exception as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
